import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// The widget's conversation in Chromium against the real server and its emulator: the assistant's
// greeting as captions, a typed question answered in the transcript, CONNECTING... cancelled with
// Escape, "Call ended" when the far side hangs up, and the text chat when the microphone is denied.

const WIDGET = 'section[aria-label^="Voice conversation"]';

/**
 * A silent microphone in place of Chromium's fake device, whose beep the room's voice detection
 * would hear as speech and echo: the captions then hold only what the test makes happen.
 */
async function silentMicrophone(page: Page) {
  await page.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      if (!constraints?.audio) return original(constraints);
      const context = new AudioContext();
      await context.resume();
      const tone = context.createOscillator();
      const level = context.createGain();
      level.gain.value = 0;
      const out = context.createMediaStreamDestination();
      tone.connect(level).connect(out);
      tone.start();
      // Like a device track, it accepts the SDK's noise-suppression setting.
      for (const track of out.stream.getAudioTracks()) track.applyConstraints = async () => {};
      return out.stream;
    };
  });
}

/** JSON text frames the page sent to call rooms. */
function sentToRooms(page: Page) {
  const sent: unknown[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (frame) => {
      if (typeof frame.payload !== 'string') return;
      try {
        sent.push(JSON.parse(frame.payload));
      } catch {
        // Not JSON: not a message.
      }
    }),
  );
  return sent;
}

/** The emulator's private key, from the server's data directory (as `npm run keys` prints it). */
function emulatorPrivateKey(): string {
  const secrets = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
  ) as Record<string, string>;
  const key = secrets.emulatorPrivateKey;
  if (!key) throw new Error('The data directory holds no emulator private key.');
  return key;
}

/**
 * An assistant of this test's own answering from one document: the file uploaded (and processed),
 * a query tool over it, and the assistant using the tool, all through the provider's API.
 */
/** A public key made with the private key (POST /provider/token), restricted to one assistant. */
async function publicKeyFor(request: APIRequestContext, assistantId: string): Promise<string> {
  const response = await request.post('/provider/token', {
    headers: { Authorization: `Bearer ${emulatorPrivateKey()}` },
    data: { tag: 'public', name: 'e2e', restrictions: { allowedAssistantIds: [assistantId] } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { value: string }).value;
}

async function assistantWithDocument(request: APIRequestContext, name: string, text: string) {
  const auth = { Authorization: `Bearer ${emulatorPrivateKey()}` };
  const created = async (response: Awaited<ReturnType<APIRequestContext['post']>>) => {
    expect(response.ok(), await response.text()).toBe(true);
    return (await response.json()) as { id: string };
  };
  const file = await created(
    await request.post('/provider/file', {
      headers: auth,
      multipart: { file: { name, mimeType: 'text/markdown', buffer: Buffer.from(text) } },
    }),
  );
  await expect
    .poll(
      async () => (await (await request.get(`/provider/file/${file.id}`, { headers: auth })).json()).status,
      {
        timeout: 30_000,
      },
    )
    .toBe('done');
  const tool = await created(
    await request.post('/provider/tool', {
      headers: auth,
      data: {
        type: 'query',
        knowledgeBases: [
          { provider: 'google', name: 'tours', description: 'Tour times', fileIds: [file.id] },
        ],
      },
    }),
  );
  const assistant = await created(
    await request.post('/provider/assistant', {
      headers: auth,
      data: {
        name: 'Tours',
        firstMessage: 'Ask me about the tours.',
        model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id] },
      },
    }),
  );
  return assistant.id;
}

async function axeViolations(page: Page) {
  // The widget is <engage-widget>'s shadow root: axe checks inside it from the host.
  const results = await new AxeBuilder({ page }).include('engage-widget').analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('voice widget conversation', () => {
  test('captions the greeting; a typed question is sent with add-message and answered in the transcript; axe-clean at 320 px', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 320, height: 640 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await silentMicrophone(page);
    const sent = sentToRooms(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    const end = page.getByRole('button', { name: 'END' });
    await expect(end).toBeVisible({ timeout: 30_000 });

    // The assistant's first message (the seeded CTO/CIO assistant's) appears as captions.
    const captions = page.getByRole('list', { name: 'Captions' });
    await expect(captions).toContainText('Hello! I can tell you about my background', { timeout: 30_000 });
    await expect(captions.getByRole('listitem').first()).toContainText('Assistant');
    await expect(page.locator(`${WIDGET} [aria-live="polite"]`)).toContainText('Assistant: Hello!');
    await expect(page.locator(WIDGET).getByText(/^Call time/)).toBeVisible();
    await expect(page.getByRole('meter', { name: 'Microphone level' })).toBeVisible();

    // Typed and sent with Enter: the room receives the SDK's add-message.
    const box = page.getByLabel('Type a message');
    await box.fill('What is your leadership experience?');
    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect
      .poll(() => sent)
      .toContainEqual({
        type: 'add-message',
        message: { role: 'user', content: 'What is your leadership experience?' },
      });

    // The transcript holds the greeting, the question, then the assistant's answer.
    // Its name follows its state: Show transcript, then Hide transcript.
    const toggle = page.locator(WIDGET).getByRole('button', { name: /transcript$/ });
    await expect(toggle).toHaveText('Show transcript');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(toggle).toHaveText('Hide transcript');
    const turns = page.getByRole('list', { name: 'Transcript' }).getByRole('listitem');
    await expect(turns.nth(0)).toContainText('Hello! I can tell you about my background');
    await expect(turns.nth(1)).toHaveText('YouWhat is your leadership experience?');
    await expect(turns).toHaveCount(3, { timeout: 30_000 });
    await expect(turns.nth(2)).toContainText('Assistant');
    const answer = ((await turns.nth(2).textContent()) ?? '').replace(/^Assistant/, '').trim();
    expect(answer.length).toBeGreaterThan(0);
    await expect(page.locator(`${WIDGET} [aria-live="polite"]`)).toContainText(`Assistant: ${answer}`, {
      timeout: 30_000,
    });

    // At 320 px the whole call fits without sideways scrolling, and axe finds nothing in the widget.
    await expect(end).toBeInViewport({ ratio: 1 });
    await expect(box).toBeInViewport({ ratio: 1 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(await axeViolations(page)).toEqual([]);

    await end.click();
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeFocused();
    await expect(page.getByRole('status')).toHaveText('Call ended.');
    // The ended call stays readable and selectable until closed; axe still finds nothing.
    const kept = page.getByRole('list', { name: 'Transcript' }).getByRole('listitem');
    await expect(kept).toHaveCount(3);
    await expect(kept.nth(1)).toHaveText('YouWhat is your leadership experience?');
    await expect(kept.nth(1)).toHaveCSS('user-select', 'auto');
    await expect(page.getByLabel('Type a message')).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close transcript' }).click();
    await expect(page.getByRole('list', { name: 'Transcript' })).toHaveCount(0);
  });

  test('Escape cancels CONNECTING... at once: the start is abandoned and ENGAGE works again', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/provider/call/web', async (route) => {
      await held;
      // The page aborted this request when the start was cancelled: nothing to answer.
      await route.continue().catch(() => {});
    });
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto('/');
    // CONNECTING... shows while the SDK is still loading; the start's request goes out after it.
    // Cancelling that early sends nothing at all (a component test covers it): here the request is out.
    const issued = page.waitForRequest((r) => r.url().endsWith('/provider/call/web'));
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await issued;
    const abandoned = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/provider/call/web'));
    await page.keyboard.press('Escape');
    const engage = page.getByRole('button', { name: 'ENGAGE' });
    await expect(engage).toBeVisible();
    await expect(engage).toBeFocused();
    await expect(page.getByRole('status')).toHaveText('Call cancelled.');
    await abandoned;
    release();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(sockets).toEqual([]);

    await page.unroute('**/provider/call/web');
    await engage.click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'END' }).click();
    await expect(engage).toBeVisible();
  });

  test('a call ended by the far side shows "Call ended." for a few seconds', async ({ page }) => {
    test.setTimeout(60_000);
    await silentMicrophone(page);
    // The call room's connection passes through the test, which then drops it as a network would.
    let hangUp = () => {};
    await page.routeWebSocket(/\/provider\/rooms\//, (ws) => {
      ws.connectToServer();
      hangUp = () => void ws.close({ code: 1000, reason: 'call ended' });
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    hangUp();
    const status = page.getByRole('status');
    await expect(status).toHaveText('Call ended.');
    // On screen, not only for screen readers (their text is clipped to a pixel).
    const box = await status.boundingBox();
    expect(box && box.width > 40 && box.height > 10).toBe(true);
    await expect(status).toBeInViewport();
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(status).toHaveText('', { timeout: 15_000 });
  });

  test('with the microphone denied, "Type instead" opens a text conversation with the assistant', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Microphone access is blocked');
    await alert.getByRole('button', { name: 'Type instead' }).click();

    const chat = page.getByRole('region', { name: 'Chat with the CTO/CIO Assistant' });
    await expect(chat).toContainText('Microphone access is blocked — you can type instead.');
    const box = chat.getByLabel('Type a message');
    await expect(box).toBeFocused();
    const answered = page.waitForResponse((r) => r.url().endsWith('/provider/chat/web'));
    await box.fill('What is your background?');
    await box.press('Enter');
    expect((await answered).ok()).toBe(true);
    const messages = chat.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
    await expect(messages).toHaveCount(2);
    await expect(messages.nth(0)).toContainText('What is your background?');
    await expect(messages.nth(1)).toContainText('The CTO/CIO Assistant:');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(chat).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Type instead' })).toBeFocused();
  });

  test('a document attached to the assistant answers a question typed during the call', async ({ page }) => {
    test.setTimeout(120_000);
    const assistantId = await assistantWithDocument(
      page.request,
      'lighthouse-tours.md',
      '# Lighthouse tours\n\nLighthouse tours start at a quarter past seven every Tuesday from the north pier.\n\n' +
        'The gift shop sells maps and postcards.',
    );
    // The page's widget calls this test's assistant (the seeded ones have no documents), with a public
    // key the provider's way: restricted to that assistant (the page's own key may not call it).
    const token = await publicKeyFor(page.request, assistantId);
    await page.route('**/provider/call/web', async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({
        headers: { ...route.request().headers(), authorization: `Bearer ${token}` },
        postData: JSON.stringify({ ...body, assistantId }),
      });
    });
    await silentMicrophone(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    const captions = page.getByRole('list', { name: 'Captions' });
    await expect(captions).toContainText('Ask me about the tours.', { timeout: 30_000 });
    const box = page.getByLabel('Type a message');
    await box.fill('When do the lighthouse tours start?');
    await box.press('Enter');
    await expect(captions.getByRole('listitem').last()).toContainText('north pier', { timeout: 30_000 });
    await expect(captions.getByRole('listitem').last()).toContainText('Assistant');
    await page.getByRole('button', { name: 'END', exact: true }).click();
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
  });
});
