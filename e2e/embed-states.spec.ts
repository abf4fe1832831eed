import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { shopPage, startHost, STATES_SITE } from './embed-helpers';
import { deniedMicrophone, farSideHangUp, silentMicrophone } from './widget-helpers';

// The app widget's behaviour inside <engage-widget> on another site: CONNECTING...
// cancelled by Cancel and Escape (before and after the view has loaded), "Call ended." when the far
// side hangs up, the blocked-microphone path, and the keyboard alone on a 320 px phone, axe-clean.

let site: Awaited<ReturnType<typeof startHost>>;
test.beforeAll(async () => {
  site = await startHost(STATES_SITE);
});
test.afterAll(async () => {
  await site.close();
});

const open = (page: Page) =>
  site.open(page, shopPage('<engage-widget assistant="asst_index"></engage-widget>'));
const engage = (page: Page) => page.getByRole('button', { name: 'ENGAGE' });

/** Holds the requests matching `pattern` until `release()`. */
async function hold(page: Page, pattern: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue().catch(() => {}); // aborted by the page meanwhile: nothing to answer
  });
  return release;
}

test.describe('<engage-widget> states on another site', () => {
  test('CONNECTING... is cancelled by Cancel while the view loads, and by Escape while the call starts', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/provider/call/web')) calls.push(r.url());
    });
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));

    // 1. The first press: the element's own CONNECTING... while the React view is on its way.
    const releaseView = await hold(page, '**/embed/app-*.js');
    await open(page);
    await engage(page).click();
    await expect(page.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(engage(page)).toBeVisible();
    releaseView();
    // The view arrived after the cancel: it starts nothing.
    await expect(page.getByRole('button', { name: 'CONNECTING...' })).toHaveCount(0);
    expect(calls).toEqual([]);

    // 2. With the view loaded, the call's start is held: Escape abandons it.
    const releaseCall = await hold(page, '**/provider/call/web');
    const issued = page.waitForRequest((r) => r.url().endsWith('/provider/call/web'));
    await engage(page).click();
    await expect(page.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    await issued;
    await page.keyboard.press('Escape');
    await expect(engage(page)).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Call cancelled.');
    releaseCall();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(sockets).toEqual([]);
  });

  test('a call the far side ends shows "Call ended."', async ({ page }) => {
    test.setTimeout(90_000);
    await silentMicrophone(page);
    const hangUp = await farSideHangUp(page);
    await open(page);
    await engage(page).click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    hangUp();
    const status = page.getByRole('status');
    await expect(status).toHaveText('Call ended.');
    await expect(status).toBeInViewport();
    await expect(engage(page)).toBeVisible();
  });

  test('a blocked microphone says how to fix it and offers the text chat, which answers', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await deniedMicrophone(page);
    await open(page);
    await engage(page).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Microphone access is blocked', { timeout: 30_000 });
    await alert.getByRole('button', { name: 'Type instead' }).click();
    const chat = page.getByRole('region', { name: /^Chat with the / });
    await expect(chat).toContainText('Microphone access is blocked — you can type instead.');
    const box = chat.getByRole('textbox', { name: 'Type a message' });
    await box.fill('Hello');
    await box.press('Enter');
    await expect(chat.getByRole('list', { name: 'Conversation' }).getByRole('listitem')).toHaveCount(2, {
      timeout: 30_000,
    });
  });

  test('the keyboard alone on a 320 px phone: chat and call, focus kept, axe-clean', async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 320, height: 640 });
    await open(page);
    await page.keyboard.press('Tab');
    await expect(engage(page)).toBeFocused();
    await page.keyboard.press('Tab');
    const typeInstead = page.getByRole('button', { name: 'Type instead' });
    await expect(typeInstead).toBeFocused();

    await page.keyboard.press('Enter');
    const chat = page.getByRole('region', { name: /^Chat with the / });
    const box = chat.getByRole('textbox', { name: 'Type a message' });
    await expect(box).toBeFocused();
    await page.keyboard.type('Hello');
    await page.keyboard.press('Enter');
    await expect(chat.getByRole('list', { name: 'Conversation' })).toHaveAttribute('aria-busy', 'false', {
      timeout: 30_000,
    });
    const panel = await chat.boundingBox();
    expect(panel && panel.x >= 0 && panel.x + panel.width <= 320).toBe(true);
    const inChat = await new AxeBuilder({ page }).include('engage-widget').analyze();
    expect(inChat.violations.map((v) => v.id)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(chat).toHaveCount(0);
    await expect(typeInstead).toBeFocused();

    await page.keyboard.press('Shift+Tab');
    await expect(engage(page)).toBeFocused();
    await page.keyboard.press('Enter');
    const end = page.getByRole('button', { name: 'END' });
    await expect(end).toBeFocused({ timeout: 30_000 });
    const inCall = await new AxeBuilder({ page }).include('engage-widget').analyze();
    expect(inCall.violations.map((v) => v.id)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(engage(page)).toBeFocused();
  });
});
