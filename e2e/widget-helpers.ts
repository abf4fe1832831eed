// Shared helpers of the widget's conversation specs (widget-conversation.spec.ts,
// widget-call-states.spec.ts): a silent microphone, the frames sent to call rooms, an assistant
// of the test's own over a document, and axe inside the widget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const WIDGET = 'section[aria-label^="Voice conversation"]';

/**
 * A silent microphone in place of Chromium's fake device, whose beep the room's voice detection
 * would hear as speech and echo: the captions then hold only what the test makes happen.
 */
export async function silentMicrophone(page: Page) {
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

/** The visitor has blocked the microphone: every request for it is refused, as the browser does. */
export async function deniedMicrophone(page: Page) {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
}

/** JSON text frames the page sent to call rooms. */
export function sentToRooms(page: Page) {
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

/**
 * Passes the page's call-room connections through the test; the function returned drops the
 * current one as a network or the far side hanging up would.
 */
export async function farSideHangUp(page: Page): Promise<() => void> {
  let hangUp = () => {};
  await page.routeWebSocket(/\/provider\/rooms\//, (ws) => {
    ws.connectToServer();
    hangUp = () => void ws.close({ code: 1000, reason: 'call ended' });
  });
  return () => hangUp();
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

/** A public key made with the private key (POST /provider/token), restricted to one assistant. */
export async function publicKeyFor(request: APIRequestContext, assistantId: string): Promise<string> {
  const response = await request.post('/provider/token', {
    headers: { Authorization: `Bearer ${emulatorPrivateKey()}` },
    data: { tag: 'public', name: 'e2e', restrictions: { allowedAssistantIds: [assistantId] } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { value: string }).value;
}

/**
 * An assistant of this test's own answering from one document: the file uploaded (and processed),
 * a query tool over it, and the assistant using the tool, all through the provider's API.
 */
export async function assistantWithDocument(request: APIRequestContext, name: string, text: string) {
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

export async function axeViolations(page: Page) {
  // The widget is <engage-widget>'s shadow root: axe checks inside it from the host.
  const results = await new AxeBuilder({ page }).include('engage-widget').analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
