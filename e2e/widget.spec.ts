import { expect, test, type Page, type WebSocket } from '@playwright/test';

// The voice widget in Chromium against the embedded provider: calls run offline through the
// emulator's echo room (fake microphone from the launch flags in playwright.config.ts).

/** Records every distinct label the widget shows, in order, from the page's first paint. */
async function recordWidgetLabels(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { widgetLabels: string[] }).widgetLabels = seen;
    const labels = ['ENGAGE', 'CONNECTING...', 'Speaking', 'Listening'];
    const read = () => {
      const region = document.querySelector('section[aria-label^="Voice conversation"]');
      if (!region) return;
      const text = region.textContent ?? '';
      const label = labels.find((l) => text.includes(l));
      if (label && seen.at(-1) !== label) seen.push(label);
    };
    new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true });
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

test.describe('voice widget', () => {
  test('a whole offline call: ENGAGE, CONNECTING..., Speaking while the echo plays, Listening, END, ENGAGE', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const labels = await recordWidgetLabels(page);
    const sockets = trackSockets(page);
    await page.goto('/');
    const engage = page.getByRole('button', { name: 'ENGAGE' });
    await expect(engage).toHaveText('🎤 ENGAGE');

    // Keyboard only: focus follows the control from ENGAGE to END.
    await engage.focus();
    await page.keyboard.press('Enter');
    const end = page.getByRole('button', { name: 'END' });
    await expect(end).toBeVisible({ timeout: 30_000 });
    await expect(end).toBeFocused();
    await expect(page.getByRole('status')).toHaveText('In a call. The assistant can hear you.');
    await expect(page.getByTestId('voice-wave-bar')).toHaveCount(5);

    // The assistant greets (Speaking), then listens while the fake microphone beeps. Muting ends the
    // visitor's turn (silence), and the echo assistant plays the beeps back: Speaking, then Listening.
    await expect(page.getByText('Speaking', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Listening', { exact: true })).toBeVisible({ timeout: 30_000 });
    const mute = page.getByRole('button', { name: 'Mute microphone' });
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status')).toHaveText('In a call. Your microphone is muted.');
    await expect(page.getByText('Speaking', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Listening', { exact: true })).toBeVisible({ timeout: 30_000 });
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    expect(inOrder(await labels(), ['Speaking', 'Listening', 'Speaking', 'Listening'])).toBe(true);

    await end.click();
    await expect(engage).toBeVisible();
    await expect(engage).toBeEnabled();
    await expect(page.getByRole('status')).toHaveText('Call ended.');
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(inOrder(await labels(), ['ENGAGE', 'CONNECTING...', 'Speaking', 'Listening', 'ENGAGE'])).toBe(
      true,
    );

    // Nothing outlives the call: no audio element, no open call socket.
    await expect(page.locator('audio')).toHaveCount(0);
    await expect.poll(() => sockets.length > 0 && sockets.every((ws) => ws.isClosed())).toBe(true);
  });

  test('leaving the page during a call ends it', async ({ page }) => {
    test.setTimeout(60_000);
    const sockets = trackSockets(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('button', { name: 'END' })).toBeVisible({ timeout: 30_000 });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Project Onboarding' })
      .click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole('button', { name: 'END' })).toHaveCount(0);
    await expect(page.locator('audio')).toHaveCount(0);
    await expect.poll(() => sockets.length > 0 && sockets.every((ws) => ws.isClosed())).toBe(true);
  });

  test('a denied microphone shows how to fix it and the widget is ready again', async ({ page }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
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
});
