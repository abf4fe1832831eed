import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ELEMENT_SITE, ENGAGE, shopPage, startHost } from './embed-helpers';

// <engage-widget>'s attributes on another site, each as a site would set it: `assistant`
// (missing, malformed, not offered), `position`, `mode`, changes after the element is on the page,
// two elements on one page, the element removed during a call, and the dashboard's pinned copy.

// Its own admin (see E2E_ADMINS in playwright.config.ts).
const ADMIN_EMAIL = 'embed-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const NOT_SET_UP = 'This assistant is not set up: the page must give <engage-widget> an assistant="…" id.';

let site: Awaited<ReturnType<typeof startHost>>;
test.beforeAll(async () => {
  site = await startHost(ELEMENT_SITE);
});
test.afterAll(async () => {
  await site.close();
});

const widgets = (page: Page) => page.locator('engage-widget');
const engage = (page: Page) => page.getByRole('button', { name: 'ENGAGE' });
const typeInstead = (page: Page) => page.getByRole('button', { name: 'Type instead' });

/** The requests to start a call or a chat, to show that none was made. */
function starts(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (/\/provider\/(call|chat)\/web$/.test(r.url())) seen.push(r.url());
  });
  return seen;
}

test.describe('<engage-widget> attributes on another site', () => {
  test('a missing or malformed assistant says so in the widget, and a later valid one works', async ({
    page,
  }) => {
    const made = starts(page);
    await site.open(
      page,
      shopPage(
        '<engage-widget></engage-widget><engage-widget assistant="not an id!" position="bottom-right"></engage-widget>',
      ),
    );
    await expect(page.getByRole('alert')).toHaveText([NOT_SET_UP, NOT_SET_UP]);
    await expect(page.getByRole('button')).toHaveCount(0);
    await widgets(page)
      .first()
      .evaluate((el) => el.setAttribute('assistant', 'asst_index'));
    await expect(page.getByRole('alert')).toHaveCount(1);
    await typeInstead(page).click();
    await expect(page.getByRole('textbox', { name: 'Type a message' })).toBeFocused();
    // Removing the attribute again ends that chat: the widget says what is missing.
    await widgets(page)
      .first()
      .evaluate((el) => el.removeAttribute('assistant'));
    await expect(page.getByRole('alert')).toHaveText([NOT_SET_UP, NOT_SET_UP]);
    await expect(page.getByRole('textbox')).toHaveCount(0);
    expect(made).toEqual([]);
  });

  test('an assistant this site is not offered says so, and nothing is started', async ({ page }) => {
    const made = starts(page);
    // The sign-in-only page's assistant: the public key may not start it.
    await site.open(page, shopPage('<engage-widget assistant="asst_ediscovery"></engage-widget>'));
    await engage(page).click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('This assistant is not available on this site.');
    await typeInstead(page).click();
    await expect(alert).toHaveText('This assistant is not available on this site.');
    await expect(page.getByRole('textbox')).toHaveCount(0);
    expect(made).toEqual([]);
  });

  test('position and mode: the right corner and controls, an invalid value the default', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 600 });
    await site.open(
      page,
      shopPage(`<engage-widget assistant="asst_index" position="bottom-right" mode="voice"></engage-widget>
<engage-widget assistant="asst_index" mode="chat" lang="fr"></engage-widget>
<engage-widget assistant="asst_index" position="top-middle" mode="video"></engage-widget>`),
    );
    const [right, chat, invalid] = [widgets(page).nth(0), widgets(page).nth(1), widgets(page).nth(2)];
    // voice: ENGAGE only, at the bottom right.
    await expect(right.getByRole('button')).toHaveText(['ENGAGE']);
    const rightBox = await right.getByRole('button', { name: 'ENGAGE' }).boundingBox();
    expect(rightBox && rightBox.x > 400 && rightBox.x + rightBox.width <= 800).toBe(true);
    // chat: "Type instead" only, at the bottom left (the default).
    await expect(chat.getByRole('button')).toHaveText(['Type instead']);
    expect((await chat.getByRole('button').boundingBox())?.x).toBeLessThan(100);
    // lang: the conversation's language; the widget's own texts stay English on a French page.
    expect(await chat.evaluate((el) => el.shadowRoot?.querySelector('section')?.matches(':lang(en)'))).toBe(
      true,
    );
    // Invalid values: the defaults, voice+chat at the bottom left.
    await expect(invalid.getByRole('button')).toHaveText(['ENGAGE', 'Type instead']);
    expect((await invalid.getByRole('button', { name: 'ENGAGE' }).boundingBox())?.x).toBeLessThan(100);

    // The chat's box (what the visitor types) is French; its label and buttons are English. (The
    // invalid one sits over it, in the same corner.)
    await invalid.evaluate((el) => el.remove());
    await chat.getByRole('button', { name: 'Type instead' }).click();
    const box = chat.getByRole('textbox', { name: 'Type a message' });
    await expect(box).toHaveAttribute('lang', 'fr');
    expect(await box.evaluate((el) => el.closest('section')?.matches(':lang(en)'))).toBe(true);

    // Changed on the page: the widget follows at once.
    await right.evaluate((el) => {
      el.setAttribute('position', 'bottom-left');
      el.setAttribute('mode', 'voice+chat');
    });
    await expect(right.getByRole('button')).toHaveText(['ENGAGE', 'Type instead']);
    expect((await right.getByRole('button', { name: 'ENGAGE' }).boundingBox())?.x).toBeLessThan(100);
  });

  test('attributes changed after a call keep the widget working, and two elements are independent', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await site.open(
      page,
      shopPage(`<engage-widget assistant="asst_index" mode="voice"></engage-widget>
<engage-widget assistant="asst_index" mode="chat" position="bottom-right"></engage-widget>`),
    );
    const [voice, chat] = [widgets(page).first(), widgets(page).last()];
    await voice.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(voice.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    // The other element is untouched by this one's call.
    await expect(chat.getByRole('button')).toHaveText(['Type instead']);
    await voice.getByRole('button', { name: 'END' }).click();
    await expect(voice.getByRole('button', { name: 'ENGAGE' })).toBeVisible();

    // The React view now owns the element: a new mode applies to it, and it still calls.
    await voice.evaluate((el) => el.setAttribute('mode', 'voice+chat'));
    await expect(voice.getByRole('button', { name: 'Type instead' })).toBeVisible();
    await voice.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(voice.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);
    await voice.getByRole('button', { name: 'END' }).click();

    await chat.getByRole('button', { name: 'Type instead' }).click();
    await expect(chat.getByRole('textbox', { name: 'Type a message' })).toBeFocused();
    await expect(voice.getByRole('textbox')).toHaveCount(0);

    // And a new position, once the other element has left that corner.
    await chat.evaluate((el) => el.remove());
    await voice.evaluate((el) => el.setAttribute('position', 'bottom-right'));
    await expect
      .poll(async () => (await voice.getByRole('button', { name: 'ENGAGE' }).boundingBox())?.x ?? 0)
      .toBeGreaterThan(640);
  });

  test('moving the element keeps its call; removing it ends the call: the microphone stops and the room closes', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.addInitScript(() => {
      const tracks: MediaStreamTrack[] = [];
      Object.defineProperty(window, '__micTracks', { value: tracks });
      const devices = navigator.mediaDevices;
      const original = devices.getUserMedia.bind(devices);
      devices.getUserMedia = async (constraints) => {
        const stream = await original(constraints);
        tracks.push(...stream.getTracks());
        return stream;
      };
    });
    await site.open(page, shopPage('<engage-widget assistant="asst_index"></engage-widget>'));
    const room = page.waitForEvent('websocket', (ws) => ws.url().includes('/provider/rooms/'));
    await engage(page).click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    const socket = await room;
    const closed = new Promise<void>((resolve) =>
      socket.isClosed() ? resolve() : socket.on('close', () => resolve()),
    );
    const live = () =>
      page.evaluate(() =>
        (window as unknown as { __micTracks: MediaStreamTrack[] }).__micTracks.map((t) => t.readyState),
      );
    expect(await live()).toContain('live');

    // Moved elsewhere in the page (as a framework may re-order its children), it keeps its call.
    await widgets(page).evaluate((el) => {
      const box = document.createElement('div');
      document.body.prepend(box);
      box.append(el);
    });
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible();
    expect(socket.isClosed()).toBe(false);
    expect(await live()).toContain('live');

    await widgets(page).evaluate((el) => el.remove());
    await closed;
    await expect.poll(live).not.toContain('live');
    expect((await live()).length).toBeGreaterThan(0);
  });

  test('the dashboard’s pinned copy: its URL serves bytes matching its SRI hash, cached for good', async ({
    page,
    request,
  }) => {
    await page.goto('/admin?section=embed');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(ADMIN_EMAIL);
    await form.getByLabel('Password').fill(ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();
    const snippet =
      (await page.getByRole('region', { name: 'Snippets' }).locator('pre').first().textContent()) ?? '';
    const [, src, integrity] = /<script src="([^"]+)" integrity="([^"]+)"/.exec(snippet) ?? [];
    expect(src).toMatch(/^http:\/\/[^/]+\/embed\/embed-[0-9a-f]+\.js$/);

    const pinned = await request.get(src as string);
    expect(pinned.status()).toBe(200);
    const digest = `sha384-${createHash('sha384')
      .update(await pinned.body())
      .digest('base64')}`;
    expect(digest).toBe(integrity);
    expect(pinned.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const current = await request.get(`${ENGAGE}/embed.js`);
    expect(current.headers()['cache-control']).not.toMatch(/immutable/);
    expect((await current.body()).equals(await pinned.body())).toBe(true);

    // The snippet as the panel gives it, on a site: the browser checks the hash and runs it. (The
    // panel names the server by PUBLIC_URL's host, localhost here; the page's CSP names 127.0.0.1.)
    const sameServer = snippet.replaceAll(new URL(src as string).origin, ENGAGE);
    await site.open(page, shopPage(sameServer, ''));
    await expect(engage(page)).toBeVisible();
  });
});
