import { expect, test } from '@playwright/test';
import { axeViolations, deniedMicrophone, farSideHangUp, silentMicrophone } from './widget-helpers';

// The widget's call states in Chromium against the real server and its emulator: CONNECTING...
// cancelled with Escape, "Call ended" when the far side hangs up, and the text chat when the
// microphone is denied.

test.describe('voice widget conversation', () => {
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
    const hangUp = await farSideHangUp(page);
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
    await deniedMicrophone(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    const alert = page.getByRole('alert');
    // The SDK and the microphone's refusal come first: on a busy machine that is more than 10 s.
    await expect(alert).toContainText('Microphone access is blocked', { timeout: 30_000 });
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
});
