import { expect, test, type Page, type WebSocket } from '@playwright/test';
import { deniedMicrophone } from './widget-helpers';

// The voice widget in Chromium against the embedded provider: calls run offline through the
// emulator's echo room (fake microphone from the launch flags in playwright.config.ts).

/** Records every distinct label the widget shows, in order, from the page's first paint. */
async function recordWidgetLabels(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { widgetLabels: string[] }).widgetLabels = seen;
    const labels = ['ENGAGE', 'CONNECTING...', 'Speaking', 'Listening'];
    const options = { subtree: true, childList: true, characterData: true };
    let watched: ShadowRoot | null = null;
    const read = () => {
      // The widget lives in <engage-widget>'s shadow root, which a document observer does not see into.
      const shadow = document.querySelector('engage-widget')?.shadowRoot ?? null;
      if (shadow && shadow !== watched) {
        watched = shadow;
        observer.observe(shadow, options);
      }
      const region = (shadow ?? document).querySelector('section[aria-label^="Voice conversation"]');
      if (!region) return;
      const text = region.textContent ?? '';
      const label = labels.find((l) => text.includes(l));
      if (label && seen.at(-1) !== label) seen.push(label);
    };
    const observer = new MutationObserver(read);
    observer.observe(document, options);
  });
  return () => page.evaluate(() => (window as unknown as { widgetLabels: string[] }).widgetLabels);
}

/** True when `items` contains `wanted` in order (other items may sit between). */
const inOrder = (items: string[], wanted: string[]) => {
  let i = 0;
  for (const item of items) if (item === wanted[i]) i += 1;
  return i === wanted.length;
};

function trackSockets(page: Page) {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => sockets.push(ws));
  return sockets;
}

/**
 * A microphone the test speaks into: a 220 Hz tone the test turns on and off (window.testMic), in
 * place of Chromium's fake device, whose once-a-second beep the room's voice detection hears only
 * sometimes once the browser's audio processing has adapted to it.
 */
async function testMicrophone(page: Page) {
  await page.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    const mic = { on: () => {}, off: () => {} };
    (window as unknown as { testMic: typeof mic }).testMic = mic;
    devices.getUserMedia = async (constraints) => {
      if (!constraints?.audio) return original(constraints);
      const context = new AudioContext();
      await context.resume();
      const tone = context.createOscillator();
      tone.frequency.value = 220;
      const level = context.createGain();
      level.gain.value = 0;
      const out = context.createMediaStreamDestination();
      tone.connect(level).connect(out);
      tone.start();
      mic.on = () => level.gain.setValueAtTime(0.5, context.currentTime);
      mic.off = () => level.gain.setValueAtTime(0, context.currentTime);
      // Like a device track, it accepts the SDK's noise-suppression setting (a generated track
      // would refuse it).
      for (const track of out.stream.getAudioTracks()) track.applyConstraints = async () => {};
      return out.stream;
    };
  });
  const set = (on: boolean) =>
    page.evaluate((value) => {
      const mic = (window as unknown as { testMic: { on(): void; off(): void } }).testMic;
      if (value) mic.on();
      else mic.off();
    }, on);
  return { speak: () => set(true), stop: () => set(false) };
}

/** Text messages the call room sent to the page (the emulator's room protocol). */
function roomMessages(page: Page) {
  const messages: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', (frame) => {
      if (typeof frame.payload === 'string') messages.push(frame.payload);
    }),
  );
  return messages;
}

/**
 * Holds the page's scripts (the prerendered page paints without them) until `release()`: what the
 * visitor does meanwhile happens before hydration. `loaded` names the held chunks that were served:
 * 'toasts' for sonner's (recognised by its toaster attribute).
 */
async function holdScripts(page: Page) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  const loaded: string[] = [];
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    held.push(route.request().url());
    await gate;
    const response = await route.fetch();
    if ((await response.text()).includes('data-sonner-toaster')) loaded.push('toasts');
    await route.fulfill({ response });
  });
  return { release, held, loaded };
}

test.describe('voice widget', () => {
  test('a whole offline call: ENGAGE, CONNECTING..., Speaking while the echo plays, Listening, END, ENGAGE', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const labels = await recordWidgetLabels(page);
    const sockets = trackSockets(page);
    const messages = roomMessages(page);
    const mic = await testMicrophone(page);
    await page.goto('/');
    const engage = page.getByRole('button', { name: 'ENGAGE' });
    // The microphone is drawn (an SVG with a size), not the 🎤 emoji that needs an emoji font.
    await expect(engage).toHaveText(/^\s*ENGAGE$/);
    const icon = await engage.locator('svg').boundingBox();
    expect(icon?.width ?? 0).toBeGreaterThan(10);

    // Keyboard only: focus follows the control from ENGAGE to END.
    await engage.focus();
    await page.keyboard.press('Enter');
    const end = page.getByRole('button', { name: 'END' });
    await expect(end).toBeVisible({ timeout: 30_000 });
    await expect(end).toBeFocused();
    await expect(page.getByRole('status')).toHaveText('In a call. The assistant can hear you.');
    await expect(page.getByTestId('voice-wave-bar')).toHaveCount(5);

    // The assistant greets (Speaking), then listens. The visitor speaks (a tone) and stops; the echo
    // assistant plays it back (Speaking), then listens again.
    await expect(page.getByText('Speaking', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Listening', { exact: true })).toBeVisible({ timeout: 30_000 });
    const heard = () => messages.some((m) => m.includes('"role":"user"') && m.includes('"status":"started"'));
    await mic.speak();
    await expect.poll(heard, { timeout: 15_000 }).toBe(true);
    await mic.stop();
    await expect(page.getByText('Speaking', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Listening', { exact: true })).toBeVisible({ timeout: 30_000 });

    // Mute during the call.
    const mute = page.getByRole('button', { name: 'Mute microphone' });
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status')).toHaveText('In a call. Your microphone is muted.');
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    expect(inOrder(await labels(), ['Speaking', 'Listening', 'Speaking', 'Listening'])).toBe(true);

    await end.focus();
    await page.keyboard.press('Enter');
    await expect(engage).toBeVisible();
    await expect(engage).toBeEnabled();
    await expect(engage).toBeFocused();
    await expect(page.getByRole('status')).toHaveText('Call ended.');
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(inOrder(await labels(), ['ENGAGE', 'CONNECTING...', 'Speaking', 'Listening', 'ENGAGE'])).toBe(
      true,
    );

    // Nothing outlives the call: no audio element, no open call socket.
    await expect(page.locator('audio')).toHaveCount(0);
    await expect.poll(() => sockets.length > 0 && sockets.every((ws) => ws.isClosed())).toBe(true);
  });

  test('each landing page calls its own assistant', async ({ page }) => {
    test.setTimeout(90_000);
    const config = await (await page.request.get('/config.json')).json();
    const callFrom = async (path: string) => {
      await page.goto(path);
      const request = page.waitForRequest(
        (r) => r.url().endsWith('/provider/call/web') && r.method() === 'POST',
      );
      await page.getByRole('button', { name: 'ENGAGE' }).click();
      const sent = await request;
      const body = sent.postDataJSON();
      keys.push(sent.headers().authorization ?? '');
      await page.getByRole('button', { name: 'END' }).click({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
      return body.assistantId;
    };
    const keys: string[] = [];
    expect(await callFrom('/')).toBe(config.assistants.index);
    // The page's everyone key, which the provider lets call the public page's assistant only.
    expect(keys).toEqual([`Bearer ${config.provider.publicKey}`]);

    // The other two pages need a signed-in visitor.
    await page.goto('/ediscovery');
    const form = page.getByRole('form', { name: 'Sign in' });
    // Its own admin (see E2E_ADMINS in playwright.config.ts): auth.spec logs admin@example.com out.
    await form.getByLabel('Email').fill('widget-admin@example.com');
    await form.getByLabel('Password', { exact: true }).fill(process.env.E2E_ADMIN_PASSWORD as string);
    await form.getByLabel('Password', { exact: true }).press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('s a l e s e n g i n e e r');
    expect(await callFrom('/ediscovery')).toBe(config.assistants.ediscovery);
    expect(await callFrom('/onboarding')).toBe(config.assistants.onboarding);
    // The sign-in-only pages use the members key, which /config.json gives only with the session.
    expect(keys[1]).toMatch(/^Bearer \S+$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  test('leaving the page during a call ends it', async ({ page }) => {
    test.setTimeout(90_000);
    const sockets = trackSockets(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // From the home page (static: its links load the next page in full, the call goes with the page).
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    await nav.getByRole('link', { name: 'Project Onboarding' }).click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole('button', { name: 'END' })).toHaveCount(0);
    await expect(page.locator('audio')).toHaveCount(0);

    // Between the app's pages (client-side routing) the widget itself ends the call as it unmounts.
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill('widget-admin@example.com');
    await form.getByLabel('Password', { exact: true }).fill(process.env.E2E_ADMIN_PASSWORD as string);
    await form.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    const inCall = sockets.length;
    await nav.getByRole('link', { name: 'Sales Engineer' }).click();
    await expect(page).toHaveURL(/\/ediscovery$/);
    await expect(page.getByRole('button', { name: 'END' })).toHaveCount(0);
    await expect(page.locator('audio')).toHaveCount(0);
    await expect.poll(() => inCall > 0 && sockets.slice(inCall - 1).every((ws) => ws.isClosed())).toBe(true);
  });

  test('a denied microphone shows how to fix it and the widget is ready again', async ({ page }) => {
    await deniedMicrophone(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('alert')).toContainText('Microphone access is blocked');
    await expect(page.getByRole('alert')).toContainText('Allow the microphone for this site');
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeEnabled();
    await expect(page.locator('audio')).toHaveCount(0);
  });

  test('a call the provider refuses shows a short message instead of a silent reset', async ({ page }) => {
    await page.route('**/provider/call/web', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('alert')).toHaveText('The call could not be started. Please try again.');
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeEnabled();
  });
  test('a click on ENGAGE before the app has loaded starts one call once it has', async ({ page }) => {
    test.setTimeout(60_000);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/provider/call/web') && r.method() === 'POST') calls.push(r.url());
    });
    const scripts = await holdScripts(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    // The page has painted and asked for the app, which has not run.
    await expect.poll(() => scripts.held.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    expect(calls).toEqual([]);
    scripts.release();
    const end = page.getByRole('button', { name: 'END' });
    await expect(end).toBeVisible({ timeout: 30_000 });
    await end.click();
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeEnabled();
    expect(calls).toHaveLength(1);
  });

  test('a key press before the app has loaded starts what waits for the first input', async ({ page }) => {
    const scripts = await holdScripts(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect.poll(() => scripts.held.length).toBeGreaterThan(0);
    await page.keyboard.press('Shift');
    scripts.release();
    // The toasts load at the first input; the one key press, made before hydration, counts.
    await expect.poll(() => scripts.loaded).toEqual(['toasts']);
  });
});
