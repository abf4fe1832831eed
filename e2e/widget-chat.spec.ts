import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { deniedMicrophone } from './widget-helpers';

// The widget's text chat in Chromium against the embedded provider: "Type instead" (or a blocked
// microphone) opens it, and it talks to the page's assistant through POST /provider/chat/web with
// the site's public key, as it would to the real provider. Each test has its own browser context,
// so its own sessionStorage and conversation.

interface PublicConfig {
  provider: { publicKey: string };
  assistants: { index: string };
}

interface WebChat {
  id: string;
  sessionId: string;
  output: { role: string; content: string }[];
}

/** The landing page, once the app has hydrated (before that a click may be replayed or lost). */
async function openHome(page: Page) {
  await page.goto('/');
  await expect(page.locator('#root[data-hydrated]')).toBeAttached();
}

const isChat = (r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/provider/chat/web';

/** Types a message into the chat and sends it with Enter; returns the request and its answer. */
async function ask(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Type a message' });
  await box.fill(text);
  const [request] = await Promise.all([page.waitForRequest(isChat), box.press('Enter')]);
  const response = await request.response();
  expect(response?.status()).toBe(201);
  const chat = (await response!.json()) as WebChat;
  const answer = chat.output.find((m) => m.role === 'assistant')?.content ?? '';
  expect(answer).not.toBe('');
  // The newest bubble (the same answer may already stand above it).
  await expect(page.getByRole('list', { name: 'Conversation' }).getByRole('listitem').last()).toContainText(
    answer,
  );

  return {
    body: request.postDataJSON() as Record<string, unknown>,
    headers: request.headers(),
    chat,
    answer,
  };
}

test.describe('widget text chat', () => {
  test('"Type instead": a conversation with the page\'s assistant by keyboard, one session, kept across a reload; axe clean', async ({
    page,
  }) => {
    const config = (await (await page.request.get('/config.json')).json()) as PublicConfig;
    await openHome(page);
    const typeInstead = page.getByRole('button', { name: 'Type instead' });
    await typeInstead.focus();
    await page.keyboard.press('Enter');

    const panel = page.getByRole('region', { name: /^Chat with the / });
    const box = panel.getByRole('textbox', { name: 'Type a message' });
    await expect(box).toBeFocused();
    await expect(panel.getByText(/microphone/i)).toHaveCount(0);

    const first = await ask(page, 'Hello');
    expect(first.body).toEqual({ assistantId: config.assistants.index, input: 'Hello' });
    expect(first.headers.authorization).toBe(`Bearer ${config.provider.publicKey}`);
    await expect(box).toHaveValue('');
    await expect(box).toBeFocused();

    // Shift+Enter is a new line, not a send; the follow-up continues the provider's session.
    await box.press('Shift+Enter');
    await expect(box).toHaveValue('\n');
    const second = await ask(page, 'What do you know about pricing?');
    expect(second.body).toEqual({
      assistantId: config.assistants.index,
      input: 'What do you know about pricing?',
      sessionId: first.chat.sessionId,
    });
    await expect(panel.locator('[aria-live="polite"]')).toContainText(second.answer);
    await expect(panel.getByRole('list', { name: 'Conversation' })).toHaveAttribute('aria-busy', 'false');

    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    // A reload keeps the conversation (sessionStorage) and its session.
    await page.reload();
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await page.getByRole('button', { name: 'Type instead' }).click();
    const conversation = page.getByRole('list', { name: 'Conversation' });
    await expect(conversation.getByText('What do you know about pricing?')).toBeVisible();
    await expect(conversation.getByRole('listitem')).toHaveCount(4);
    await expect(conversation.getByRole('listitem').last()).toContainText(second.answer);
    const third = await ask(page, 'Thanks');
    expect(third.body.sessionId).toBe(first.chat.sessionId);

    // Escape closes the chat and gives the focus back to the control that opened it.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('region', { name: /^Chat with the / })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Type instead' })).toBeFocused();
  });

  test('with the microphone blocked, the widget offers the text chat, which says why and works', async ({
    page,
  }) => {
    await deniedMicrophone(page);
    await openHome(page);
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Microphone access is blocked.', { timeout: 30_000 });
    // One "Type instead": the alert's, not a second one beside ENGAGE.
    await expect(page.getByRole('button', { name: 'Type instead' })).toHaveCount(1);
    await alert.getByRole('button', { name: 'Type instead' }).click();

    const panel = page.getByRole('region', { name: /^Chat with the / });
    await expect(panel.getByText('Microphone access is blocked — you can type instead.')).toBeVisible();
    await expect(panel.getByRole('textbox', { name: 'Type a message' })).toBeFocused();
    await ask(page, 'Hello');
  });

  test('a failed send is shown where the visitor types and the message can be sent again', async ({
    page,
  }) => {
    await openHome(page);
    await page.getByRole('button', { name: 'Type instead' }).click();
    const panel = page.getByRole('region', { name: /^Chat with the / });
    const box = panel.getByRole('textbox', { name: 'Type a message' });

    // The network drops the first attempt.
    await page.route('**/provider/chat/web', (route) => route.abort('internetdisconnected'), { times: 1 });
    await box.fill('Are you there?');
    await box.press('Enter');
    await expect(panel.getByRole('alert')).toContainText('Could not reach the assistant.');
    await expect(box).toHaveValue('Are you there?');

    await box.focus();
    const retry = await ask(page, 'Are you there?');
    expect(retry.body.input).toBe('Are you there?');
    await expect(panel.getByRole('alert')).toHaveCount(0);
  });

  test('fits a 320 px wide screen, long words included', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await openHome(page);
    await page.getByRole('button', { name: 'Type instead' }).click();
    const panel = page.getByRole('region', { name: /^Chat with the / });
    await ask(page, `Hello ${'x'.repeat(120)}`);
    const box = await panel.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    // With "New conversation" beside it, the assistant's name is read whole: it wraps, never cut.
    await expect(panel.getByRole('button', { name: 'New conversation' })).toBeVisible();
    const title = panel.getByRole('heading', { level: 2 });
    await expect(title).toHaveText(/^Chat with the CTO\/CIO Assistant$/);
    const cut = await title.evaluate(
      (el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis',
    );
    expect(cut, 'the chat title is cut').toBe(false);
  });
});
