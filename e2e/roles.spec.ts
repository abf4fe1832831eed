import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// Its own admin (see E2E_ADMINS in playwright.config.ts): specs run in parallel and a log-out
// revokes every session of an account. The users it promotes are created here, per run.
const ADMIN_EMAIL = 'roles-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const USER_PASSWORD = 'roles-user-password';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** The emulator's private key, as the server generated it in its data directory. */
function privateKey(): string {
  const secrets = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
  );
  return secrets.emulatorPrivateKey as string;
}

async function anonKey(request: APIRequestContext): Promise<string> {
  const config = await (await request.get('/config.json')).json();
  return config.auth.anonKey as string;
}

/** An access token by the password grant of the embedded auth (what supabase-js does). */
async function tokenFor(request: APIRequestContext, email: string, password: string): Promise<string> {
  const key = await anonKey(request);
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    data: { email, password },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).access_token as string;
}

/** A confirmed account created through the admin API, with no role. */
async function createUser(request: APIRequestContext, adminToken: string, email: string) {
  const res = await request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email, password: USER_PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** An assistant of the provider's, made with the private key, for the Setup tab to list. */
async function createAssistant(request: APIRequestContext, name: string) {
  const res = await request.post('/provider/assistant', {
    headers: { Authorization: `Bearer ${privateKey()}` },
    data: { name, model: { provider: 'openai', model: 'gpt-4o', messages: [] } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function signIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

const axe = async (page: Page) =>
  (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id);

const toolHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Vapi Knowledge Base Bulk Import Tool' });

/** Every request the page makes to the proxy (/api/provider) and to the provider (/provider). */
function recordProviderRequests(page: Page) {
  const seen = { proxy: [] as string[], direct: [] as { url: string; authorization: string }[] };
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/api/provider')) seen.proxy.push(pathname);
    else if (pathname.startsWith('/provider/'))
      seen.direct.push({ url: pathname, authorization: req.headers().authorization ?? '' });
  });
  return seen;
}

test.describe('roles in Chromium', () => {
  test('an admin makes a user an operator on the dashboard; the operator uses the server key', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(120_000);
    const operator = `e2e-operator-${run}@example.com`;
    const adminToken = await tokenFor(request, ADMIN_EMAIL, ADMIN_PASSWORD);
    await createUser(request, adminToken, operator);
    const assistantName = `Roles e2e ${run}`;
    await createAssistant(request, assistantName);
    // Before the change the server refuses the user its key.
    const before = await request.get('/api/provider/assistant', {
      headers: { Authorization: `Bearer ${await tokenFor(request, operator, USER_PASSWORD)}` },
    });
    expect(before.status()).toBe(403);
    expect((await before.json()).error).toBe('operator_required');

    await page.goto('/admin?section=users');
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
    await page.getByPlaceholder('Search by email...').fill(operator);
    const role = page.getByRole('combobox', { name: `Role for ${operator}` });
    await expect(role).toHaveValue('user');
    // The admin's own row cannot be changed.
    await page.getByPlaceholder('Search by email...').fill(ADMIN_EMAIL);
    await expect(page.getByRole('combobox', { name: `Role for ${ADMIN_EMAIL}` })).toBeDisabled();
    await page.getByPlaceholder('Search by email...').fill(operator);
    await role.selectOption({ label: 'Operator' });
    const ask = page.getByRole('alertdialog', { name: 'Make operator' });
    await expect(ask).toContainText(`${operator} will use the server's provider key`);
    await ask.getByRole('button', { name: 'Make operator' }).click();
    await expect(page.getByText(`${operator} is now an Operator`)).toBeVisible();
    await expect(role).toHaveValue('operator');
    await expect(role).toBeEnabled();
    await page.getByRole('tab', { name: 'Activity' }).click();
    const activity = page.getByRole('list', { name: 'Recent admin actions' });
    await expect(activity.getByRole('listitem').filter({ hasText: operator }).first()).toContainText(
      `changed the role of ${operator} to Operator`,
    );
    expect(await axe(page), 'axe on the dashboard with role controls').toEqual([]);

    // The operator, in a browser of their own, uses the tool through the server-held key.
    const context = await browser.newContext();
    const operatorPage = await context.newPage();
    const seen = recordProviderRequests(operatorPage);
    await operatorPage.goto('/kb-import');
    await signIn(operatorPage, operator, USER_PASSWORD);
    await expect(toolHeading(operatorPage)).toBeVisible();
    await expect(operatorPage.getByLabel('Private API key')).toBeDisabled();
    await expect(operatorPage.getByText(/The server holds the Vapi private key/)).toBeVisible();
    await operatorPage.getByRole('combobox', { name: 'Assistant' }).click();
    await operatorPage.getByRole('option', { name: assistantName }).click();
    await expect(operatorPage.getByRole('combobox', { name: 'Assistant' })).toHaveText(assistantName);
    expect(seen.proxy).toContain('/api/provider/assistant');
    expect(seen.direct).toEqual([]);
    await context.close();
  });

  test('a user without the role sees how to get access, and may use their own key with the provider', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const plain = `e2e-plain-${run}@example.com`;
    await createUser(request, await tokenFor(request, ADMIN_EMAIL, ADMIN_PASSWORD), plain);
    const assistantName = `Own key e2e ${run}`;
    await createAssistant(request, assistantName);

    const seen = recordProviderRequests(page);
    await page.goto('/kb-import');
    await signIn(page, plain, USER_PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: 'Operator access needed' })).toBeVisible();
    await expect(page.getByText(/Ask an administrator to give your account the Operator role/)).toBeVisible();
    await expect(toolHeading(page)).toHaveCount(0);
    expect(await axe(page), 'axe on the no-access screen').toEqual([]);
    expect(seen.proxy).toEqual([]);

    await page.getByRole('button', { name: 'Use my own private key' }).click();
    await expect(toolHeading(page)).toBeVisible();
    const key = page.getByLabel('Private API key');
    await expect(key).toBeEnabled();
    await expect(key).toBeFocused();
    await key.fill(privateKey());
    await page.getByRole('combobox', { name: 'Assistant' }).click();
    await page.getByRole('option', { name: assistantName }).click();
    await expect(page.getByRole('combobox', { name: 'Assistant' })).toHaveText(assistantName);
    expect(await axe(page), 'axe on the tool with a typed key').toEqual([]);

    // Straight to the provider with the typed key; nothing through our server's proxy.
    expect(seen.direct.length).toBeGreaterThan(0);
    expect(seen.direct.every((r) => r.authorization === `Bearer ${privateKey()}`)).toBe(true);
    expect(seen.proxy).toEqual([]);
  });
});
