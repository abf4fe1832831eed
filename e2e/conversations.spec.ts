import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectWholePlaceholder } from './layout-helpers';
import { openMail } from './mail-outbox';

// An operator reads the visitors' conversations at /conversations (search,
// transcript, CSV export, delete), answers a question the assistant could not answer, and the
// assistant answers it from then on; a user without the role sees no conversation. The server
// holds the provider's key: the page goes through /api/provider, which checks the role.

// Its own admin (see E2E_ADMINS in playwright.config.ts); the operator and the user are made per run.
const ADMIN_EMAIL = 'conversations-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const USER_PASSWORD = 'conversations-user-password';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface PublicConfig {
  auth: { anonKey: string };
  assistants: { index: string; ediscovery: string; onboarding: string };
}

/** The emulator's private key, as the server generated it in its data directory. */
function privateKey(): string {
  const secrets = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
  );
  return secrets.emulatorPrivateKey as string;
}

async function config(request: APIRequestContext): Promise<PublicConfig> {
  return (await (await request.get('/config.json')).json()) as PublicConfig;
}

/** An access token by the password grant of the embedded auth (what supabase-js does). */
async function tokenFor(request: APIRequestContext, email: string, password: string): Promise<string> {
  const key = (await config(request)).auth.anonKey;
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    data: { email, password },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).access_token as string;
}

/** A confirmed account made through the admin API, with the role given (none: a plain user). */
async function createUser(request: APIRequestContext, email: string, role?: 'operator') {
  const headers = { Authorization: `Bearer ${await tokenFor(request, ADMIN_EMAIL, ADMIN_PASSWORD)}` };
  const res = await request.post('/api/admin/users', { headers, data: { email, password: USER_PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  if (role) {
    const set = await request.put(`/api/admin/users/${user.id}/role`, { headers, data: { role } });
    expect(set.status(), await set.text()).toBe(200);
  }
}

/** A visitor's chat with an assistant (POST /chat, as a site's server would send it): its answer. */
async function visitorAsks(request: APIRequestContext, assistantId: string, input: string): Promise<string> {
  const res = await request.post('/provider/chat', {
    headers: { Authorization: `Bearer ${privateKey()}` },
    data: { assistantId, input },
  });
  expect(res.status(), await res.text()).toBe(201);
  const chat = (await res.json()) as { output: { role: string; content: string }[] };
  return chat.output.find((m) => m.role === 'assistant')?.content ?? '';
}

async function signIn(page: Page, email: string) {
  await page.goto('/conversations');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(USER_PASSWORD);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

const axe = async (page: Page) =>
  (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id);

test.describe('conversations in Chromium', () => {
  test('a user without the operator role sees "Operator access needed" and no conversation', async ({
    page,
    request,
  }) => {
    const email = `e2e-conv-user-${run}@example.com`;
    await createUser(request, email);
    const { assistants } = await config(request);
    await visitorAsks(request, assistants.index, `Private question ${run}?`);
    await signIn(page, email);
    await expect(page.getByRole('heading', { level: 1, name: 'Operator access needed' })).toBeVisible();
    await expect(page.getByText(`Private question ${run}?`)).toHaveCount(0);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }),
    ).toHaveCount(0);
    expect(await axe(page)).toEqual([]);
    // The server decides, whatever the page shows: the user's own token gets nothing.
    const token = await tokenFor(request, email, USER_PASSWORD);
    for (const route of ['/api/provider/chat', '/api/provider/call']) {
      const res = await request.get(route, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status()).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'operator_required' });
    }
  });

  test('an operator finds a chat, searches, reads it, exports CSV, deletes it, and answers an unanswered question', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const email = `e2e-conv-operator-${run}@example.com`;
    await createUser(request, email, 'operator');
    const { assistants } = await config(request);
    // A question no document covers: the onboarding assistant says it does not know.
    const question = `Where do visitors park the ${run} zebra carts?`;
    const before = await visitorAsks(request, assistants.onboarding, question);
    expect(before).toMatch(/I don't know|no documents/);

    await signIn(page, email);
    await expect(page.getByRole('heading', { level: 1, name: 'Conversations' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Conversations' });
    await page.getByRole('searchbox', { name: 'Search' }).fill(run);
    const row = list.getByRole('listitem').filter({ hasText: question });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Chat');
    await expect(row).toContainText('Project Onboarding Assistant');
    expect(await axe(page)).toEqual([]);

    // A phone's 320 px: the list, the filters and the other tab fit without sideways scrolling.
    await page.setViewportSize({ width: 320, height: 700 });
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth);
    await expect(row).toBeVisible();
    expect(await sideways()).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 720 });

    // The whole transcript, by keyboard.
    await row.getByRole('button', { name: new RegExp(question.replace(/[?]/g, '\\?')) }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    const transcript = dialog.getByRole('list', { name: 'Transcript' });
    await expect(transcript.getByRole('listitem')).toHaveCount(2);
    await expect(transcript.getByRole('listitem').first()).toContainText(`Visitor`);
    await expect(transcript.getByRole('listitem').last()).toContainText(before);
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // Export CSV of the current filter (the search): our conversation, its question in a cell.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^conversations-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('Started,Kind,Assistant,Duration (s),First question,Transcript,Ids');
    expect(csv).toContain(`,Chat,Project Onboarding Assistant,`);
    expect(csv).toContain(question);
    await expect(
      page.getByRole('status').filter({ hasText: /^Exported \d+ conversations?\.$/ }),
    ).toBeVisible();

    // Small talk, asked now: the save below asks the server to scan again, which finds it.
    const smallTalk = `Thanks ${run}`;
    await visitorAsks(request, assistants.onboarding, smallTalk);

    // Unanswered questions: answer it; it leaves the list.
    await page.getByRole('tab', { name: 'Unanswered questions' }).click();
    const unanswered = page.getByRole('list', { name: 'Unanswered questions' });
    const item = unanswered.getByRole('listitem', { name: question });
    await expect(item).toContainText('asked 1 time');
    expect(await axe(page)).toEqual([]);
    await item.getByRole('button', { name: 'Answer' }).click();
    const answer = `The ${run} zebra carts park behind the north barn.`;
    await item.getByRole('textbox', { name: 'Answer' }).fill(answer);
    await item.getByRole('button', { name: 'Save answer' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Answer saved' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(unanswered.getByRole('listitem', { name: question })).toHaveCount(0);

    // A new visitor chat now gets the answer (once the provider has processed the new document).
    await expect
      .poll(() => visitorAsks(request, assistants.onboarding, question), { timeout: 60_000 })
      .toContain('north barn');
    // Reloaded, the list is the provider's: the question stays answered.
    await page.reload();
    await page.getByRole('tab', { name: 'Unanswered questions' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Loading unanswered questions' })).toHaveCount(
      0,
      {
        timeout: 30_000,
      },
    );
    await expect(page.getByRole('listitem', { name: question })).toHaveCount(0);

    // Small talk needs no answer: dismissed, it leaves the list and stays out after a reload.
    const thanks = page.getByRole('listitem', { name: smallTalk });
    await thanks.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Dismissed: "${smallTalk}"` })).toBeVisible();
    await expect(thanks).toHaveCount(0);
    await page.reload();
    await page.getByRole('tab', { name: 'Unanswered questions' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Loading unanswered questions' })).toHaveCount(
      0,
      {
        timeout: 30_000,
      },
    );
    await expect(page.getByRole('listitem', { name: smallTalk })).toHaveCount(0);

    // Delete the first conversation (a visitor's privacy request), after confirmation.
    await page.getByRole('tab', { name: 'Conversations' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill(`${run} zebra carts?`);
    // The first chat and the ones that asked again: the oldest (last) is the one to delete.
    const rows = list.getByRole('listitem');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(2);
    await rows.last().getByRole('button').click();
    await expect(page.getByRole('dialog').getByRole('list', { name: 'Transcript' })).toContainText(before);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this conversation?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The conversation was deleted.' })).toBeVisible();
    await expect(rows).toHaveCount(count - 1);
  });

  test('a visitor the assistant could not answer leaves an address in the chat on /, the admin answers on /conversations, the answer is mailed, and the assistant knows it from then on', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const { siteTitle } = (await (await request.get('/config.json')).json()) as { siteTitle: string };
    const question = `Do the ${run} llamas ride the night bus?`;
    const visitorEmail = `visitor-${run}@example.com`;

    // The visitor, in a browser of their own: the chat on /, an "I don't know", and the offer.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.locator('#root[data-hydrated]')).toBeAttached();
    await visitor.getByRole('button', { name: 'Type instead' }).click();
    const chat = visitor.getByRole('region', { name: /^Chat with the / });
    await chat.getByRole('textbox', { name: 'Type a message' }).fill(question);
    await chat.getByRole('textbox', { name: 'Type a message' }).press('Enter');
    const offer = chat.getByRole('form', { name: /owner to answer you by mail/ });
    await expect(offer).toBeVisible({ timeout: 30_000 });
    await expect(offer).toContainText('Used only to send you the owner');
    const address = offer.getByRole('textbox', { name: 'Your email address' });
    await address.fill('visitor.example.com');
    await offer.getByRole('button', { name: 'Mail me the answer' }).click();
    await expect(offer.getByRole('alert')).toContainText('does not look like an email address');
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    const axeVisitor = await new AxeBuilder({ page: visitor }).analyze();
    expect(axeVisitor.violations.map((v) => v.id)).toEqual([]);
    await address.fill(visitorEmail);
    await offer.getByRole('button', { name: 'Mail me the answer' }).click();
    await expect(chat.getByText(/answer will be mailed to the address you gave/)).toBeVisible();
    await expect(visitor.getByText(visitorEmail)).toHaveCount(0);

    // The admin sees who is waiting, and answers in place.
    await page.goto('/conversations');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(ADMIN_EMAIL);
    await form.getByLabel('Password').fill(ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();
    // The page opens on its trends: the figures, a chart drawn, and its table view.
    const trends = page.getByRole('region', { name: 'Trends' });
    await expect(trends.getByText('The last 30 days.')).toBeVisible({ timeout: 30_000 });
    const perDay = trends.getByRole('figure', { name: 'Conversations per day' });
    await expect(perDay.locator('canvas')).toBeVisible();
    await perDay.getByText('Table view').click();
    await expect(perDay.getByRole('table', { name: 'Conversations per day' }).getByRole('row')).toHaveCount(
      31,
    );
    await trends.getByRole('button', { name: '7 days' }).click();
    await expect(trends.getByText('The last 7 days.')).toBeVisible();
    await expect(perDay.getByRole('table', { name: 'Conversations per day' }).getByRole('row')).toHaveCount(
      8,
    );
    await expect(trends.getByText('Questions waiting for an answer', { exact: true })).toBeVisible();
    expect(await axe(page)).toEqual([]);

    await page.getByRole('tab', { name: /^Unanswered questions/ }).click();
    await page.getByRole('checkbox', { name: /Only questions a visitor is waiting on/ }).check();
    const item = page
      .getByRole('list', { name: 'Unanswered questions' })
      .getByRole('listitem', { name: question });
    await expect(item).toContainText(`waiting: ${visitorEmail}`, { timeout: 30_000 });
    expect(await axe(page)).toEqual([]);
    await item.getByRole('button', { name: 'Answer' }).click();
    const answer = `Only on Tuesdays, the ${run} llamas take the 23:40.`;
    await item.getByRole('textbox', { name: 'Answer' }).fill(answer);
    await item.getByRole('button', { name: 'Save and mail answer' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Mailed to 1 waiting visitor.' })).toBeVisible({
      timeout: 30_000,
    });
    const mailed = page
      .getByRole('list', { name: 'Answers by mail' })
      .getByRole('listitem', { name: `${question} to ${visitorEmail}` });
    await expect(mailed).toContainText('Answer sent');

    // The visitor's address received the answer: the question, the answer, nothing to click.
    const mail = await openMail(page, visitorEmail, `Your question to ${siteTitle}`);
    expect(mail).toContain(question);
    expect(mail).toContain(answer);
    expect(mail).toContain('This is a one-time reply');

    // And the assistant answers it from then on, in the same chat (once the document is read).
    await expect(async () => {
      await chat.getByRole('textbox', { name: 'Type a message' }).fill(question);
      await chat.getByRole('textbox', { name: 'Type a message' }).press('Enter');
      await expect(
        chat.getByRole('list', { name: 'Conversation' }).getByRole('listitem').last(),
      ).toContainText('23:40', { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await expect(chat.getByRole('form', { name: /owner to answer you by mail/ })).toHaveCount(0);
    await visitorContext.close();
  });

  // Last: opening the page scans for unanswered questions, which the tab then keeps a minute.
  test('on a phone the filters fold behind "More filters", and the search box shows its whole placeholder', async ({
    page,
    request,
  }) => {
    const email = `e2e-conv-phone-${run}@example.com`;
    await createUser(request, email, 'operator');
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, email);
    const filters = page.getByRole('search', { name: 'Filter conversations' });
    await expect(filters.getByLabel('Search')).toBeVisible();
    await expect(filters.getByLabel('Assistant')).toBeHidden();
    const more = filters.getByRole('button', { name: 'More filters' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(filters.getByLabel('Assistant')).toBeVisible();
    await filters.getByLabel('Kind').selectOption('Chat');
    await filters.getByRole('button', { name: 'Fewer filters' }).click();
    await expect(filters.getByRole('button', { name: 'More filters (1 set)' })).toBeVisible();
    await expect(filters.getByLabel('Kind')).toBeHidden();
    // At the desktop width everything shows, and the placeholder is not cut.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(filters.getByLabel('Kind')).toBeVisible();
    await expect(filters.getByRole('button', { name: /filters/ })).toBeHidden();
    await expectWholePlaceholder(filters.getByLabel('Search'));
  });
});
