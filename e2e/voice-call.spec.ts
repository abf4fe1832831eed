import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

// A whole offline voice call in Chromium: the built SDK (packages/voice/dist) on a small test page,
// the fake microphone, the server's emulator and its echo assistant over a WebSocket room.

const root = path.resolve(import.meta.dirname, '..');
const sdkDir = path.join(root, 'packages/voice/dist');
const pageDir = path.join(root, 'e2e/voice-call');

const types: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.map': 'application/json',
};

/** The emulator's keys: from /config.json when it publishes them, else the data directory's secrets. */
async function emulatorKeys(page: Page): Promise<{ publicKey: string; privateKey: string | null }> {
  const config = (await (await page.request.get('/config.json')).json()) as {
    provider?: { publicKey?: string };
  };
  const file = path.join(process.env.E2E_DATA_DIR as string, 'secrets.json');
  const secrets: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const find = (kind: string) =>
    Object.entries(secrets).find(([name]) => /emulator/i.test(name) && new RegExp(kind, 'i').test(name))?.[1];
  const publicKey = config.provider?.publicKey ?? find('public');
  if (!publicKey) throw new Error('The server published no provider public key.');
  return { publicKey, privateKey: find('private') ?? null };
}

/**
 * Opens the test page on the server's origin, under the server's own Content-Security-Policy: the
 * document is a real response of the server (so Chromium treats it as a loopback page, as the site
 * is), its body is replaced by the test page, and the page's script and the built SDK are served
 * by routes under /__e2e/.
 */
async function openTestPage(page: Page, query: string) {
  if (!existsSync(path.join(sdkDir, 'index.js')))
    throw new Error('packages/voice/dist is missing: run `npm run build -w packages/voice` first.');
  await page.route('**/__e2e/**', async (route) => {
    const { pathname } = new URL(route.request().url());
    const file = pathname.startsWith('/__e2e/sdk/')
      ? path.join(sdkDir, pathname.slice('/__e2e/sdk/'.length))
      : path.join(pageDir, pathname.slice('/__e2e/voice-call/'.length));
    if (!file.startsWith(sdkDir + path.sep) && !file.startsWith(pageDir + path.sep))
      return route.fulfill({ status: 404 });
    if (!existsSync(file)) return route.fulfill({ status: 404, body: `no ${pathname}` });
    await route.fulfill({
      status: 200,
      body: readFileSync(file),
      headers: { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' },
    });
  });
  const response = await page.goto(`/healthz?${query}`);
  expect(response?.headers()['content-security-policy'], 'the server sends a CSP').toContain(
    "script-src 'self'",
  );
  await page.setContent(readFileSync(path.join(pageDir, 'index.html'), 'utf8'));
}

const event = (page: Page, name: string) => page.locator(`#events li[data-event="${name}"]`);

test.describe('voice SDK over a WebSocket call room', () => {
  test('holds a call with the echo assistant: call-start, speech-start, speech-end, stop, call-end, nothing left behind', async ({
    page,
  }) => {
    const { publicKey, privateKey } = await emulatorKeys(page);
    await openTestPage(page, `key=${encodeURIComponent(publicKey)}&assistant=asst_index`);

    await page.getByRole('button', { name: 'Start call', exact: true }).click();
    await expect(event(page, 'call-start')).toHaveCount(1, { timeout: 20_000 });
    await expect(event(page, 'message').filter({ hasText: '"status":"in-progress"' })).toHaveCount(1);
    // The greeting plays through the SDK's <audio> element: the assistant is heard speaking, then stops.
    await expect(event(page, 'speech-start').first()).toBeAttached({ timeout: 20_000 });
    await expect(page.locator('audio')).toHaveCount(1);
    await expect(event(page, 'speech-end').first()).toBeAttached({ timeout: 30_000 });
    // The greeting's captions reach `message` as the provider sends them: speech-update, transcript
    // partials as it plays, then the final with the whole first message.
    const messages = event(page, 'message');
    const transcripts = messages.filter({ hasText: '"type":"transcript' });
    await expect(messages.filter({ hasText: '"type":"speech-update"' }).first()).toContainText(
      '"role":"assistant"',
    );
    await expect(transcripts.filter({ hasText: '"transcriptType":"partial"' }).first()).toBeAttached();
    await expect(transcripts.filter({ hasText: '"transcriptType":"final"' }).first()).toContainText(
      'Hello! I can tell you about my background',
      { timeout: 30_000 },
    );
    expect(Number(await page.locator('body').getAttribute('data-loudest'))).toBeGreaterThan(0);
    const started = await event(page, 'started').textContent();
    const callId = (JSON.parse(started!.slice('started '.length)) as { id: string }).id;
    expect(callId).toBeTruthy();

    await page.getByRole('button', { name: 'Stop call' }).click();
    await expect(event(page, 'stopped')).toHaveCount(1);
    await expect(event(page, 'call-end')).toHaveCount(1);
    await expect(page.locator('audio')).toHaveCount(0);
    await expect(event(page, 'error')).toHaveCount(0);
    await expect(event(page, 'csp-violation')).toHaveCount(0);
    await expect(event(page, 'call-start-failed')).toHaveCount(0);

    // The room was freed and the provider's record says the caller ended the call.
    if (privateKey) {
      await expect
        .poll(async () => {
          const res = await page.request.get(`/provider/call/${callId}`, {
            headers: { Authorization: `Bearer ${privateKey}` },
          });
          return ((await res.json()) as { status?: string }).status;
        })
        .toBe('ended');
    }
  });

  test('joins a WebSocket call created by the server with its private key (POST /api/calls/websocket)', async ({
    page,
  }) => {
    const { publicKey } = await emulatorKeys(page);
    await openTestPage(page, `key=${encodeURIComponent(publicKey)}&assistant=asst_index`);
    await page.getByRole('button', { name: 'Start call through the server' }).click();
    await expect(event(page, 'created')).toContainText('"status":201');
    await expect(event(page, 'call-start')).toHaveCount(1, { timeout: 20_000 });
    await expect(event(page, 'speech-start').first()).toBeAttached({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop call' }).click();
    await expect(event(page, 'call-end')).toHaveCount(1);
    await expect(page.locator('audio')).toHaveCount(0);
    await expect(event(page, 'error')).toHaveCount(0);
    await expect(event(page, 'csp-violation')).toHaveCount(0);
  });
});
