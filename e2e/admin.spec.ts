import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// Its own admin (see E2E_ADMINS in playwright.config.ts): auth.spec logs admin@example.com out.
const ADMIN_EMAIL = 'dashboard-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

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

async function signIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

const region = (page: Page, name: RegExp) => page.getByRole('region', { name });

test.describe('admin dashboard in Chromium', () => {
  test('the admin creates a user, finds it, verifies a pending one and deletes them', async ({
    page,
    request,
  }) => {
    // A visitor signs up on their own: an unverified account the admin will confirm.
    const pending = `e2e-pending-${run}@example.com`;
    const key = await anonKey(request);
    const signup = await request.post('/auth/v1/signup', {
      headers: { apikey: key, Authorization: `Bearer ${key}` },
      data: { email: pending, password: 'pending-password' },
    });
    expect(signup.status(), await signup.text()).toBe(200);

    await page.goto('/admin');
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
    await expect(page.getByText('Manage users, verify emails, and create new accounts')).toBeVisible();
    await expect(page.getByLabel(/^Total Users: \d+$/)).toBeVisible();

    // The Users section, named in the URL.
    await page.getByRole('tab', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/admin\?section=users$/);

    // Create New User: confirmed at once.
    const created = `e2e-new-${run}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(created);
    await page.getByLabel('Password', { exact: true }).fill('created-password');
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('User created successfully')).toBeVisible();

    // Found by a case-insensitive search, verified, in the one list.
    const search = page.getByPlaceholder('Search by email...');
    await search.fill(`E2E-NEW-${run.toUpperCase()}`);
    const users = region(page, /^Users/);
    await expect(users.getByText(created)).toBeVisible();
    await expect(users).toHaveAccessibleName('Users (1)');
    await expect(users.getByRole('listitem').getByText('Verified', { exact: true })).toBeVisible();

    // The pending sign-up: select it and verify it without leaving the app. The embedded auth has no
    // SQL editor, so no SQL is offered to run in one.
    await search.fill(pending);
    await users.getByLabel('Show').selectOption('Unverified');
    await expect(users.getByText(pending)).toBeVisible();
    await users.getByRole('checkbox', { name: `Select ${pending}` }).click();
    await expect(users.getByRole('button', { name: 'Clear Selection (1)' })).toBeVisible();
    await expect(users.getByRole('button', { name: 'Generate SQL' })).toHaveCount(0);
    // Toasts included: sonner's rich colours get darker text in app/provider.tsx.
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    await users.getByRole('button', { name: 'Verify selected' }).click();
    await expect(page.getByText('Verified 1 user')).toBeVisible();
    // A success toast is surely on screen now: its colours pass too. Checked once its entrance
    // transition has finished, and only the front toast: the ones stacked behind it are dimmed
    // on purpose (sonner) and are not there to be read until the stack is expanded.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const toastAxe = await new AxeBuilder({ page })
      .include('[data-sonner-toast][data-front="true"]')
      .analyze();
    expect(
      toastAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    await expect(users.getByText('No unverified users match the search')).toBeVisible();
    await users.getByLabel('Show').selectOption('Verified');
    await expect(users.getByText(pending)).toBeVisible();

    // Delete it, after the confirmation.
    await users.getByRole('button', { name: `Delete ${pending}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Are you sure you want to delete this user?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('User deleted successfully')).toBeVisible();
    await expect(users.getByText('No verified users match the search')).toBeVisible();

    // And the one created here, so the run leaves nothing behind.
    await search.fill(created);
    await users.getByRole('button', { name: `Delete ${created}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(users.getByText('No verified users match the search')).toBeVisible();

    // Each action is in the server's audit log, in the Activity section.
    await page.getByRole('tab', { name: 'Activity' }).click();
    const activity = page.getByRole('list', { name: 'Recent admin actions' });
    await expect(activity).toContainText(`${ADMIN_EMAIL} deleted ${created}`);
    await expect(activity).toContainText(`${ADMIN_EMAIL} verified ${pending}`);
    await expect(activity).toContainText(`${ADMIN_EMAIL} created ${created}`);
  });

  test('a signed-in non-admin sees the not-authorised screen and gets 403 from the API', async ({
    page,
    request,
  }) => {
    const email = `e2e-user-${run}@example.com`;
    const adminToken = await tokenFor(request, ADMIN_EMAIL, ADMIN_PASSWORD);
    const create = await request.post('/api/admin/users', {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: { email, password: 'plain-user-password' },
    });
    expect(create.status()).toBe(201);

    await page.goto('/admin');
    await signIn(page, email, 'plain-user-password');
    await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'User Management Dashboard' })).toHaveCount(0);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    const userToken = await tokenFor(request, email, 'plain-user-password');
    const refused = await request.get('/api/admin/users', {
      headers: { Authorization: `Bearer ${userToken}` },
    });
    expect(refused.status()).toBe(403);
    expect((await request.get('/api/admin/users')).status()).toBe(401);

    const { user } = await create.json();
    const removed = await request.delete(`/api/admin/users/${user.id}`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(removed.status()).toBe(200);
  });

  test('no server secret reaches the site bundle or an admin API response', async ({ request }) => {
    const secretsFile = path.join(process.env.E2E_DATA_DIR as string, 'secrets.json');
    const secrets = Object.entries(
      existsSync(secretsFile)
        ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>)
        : {},
    ).filter(([name]) => !/public|anon/i.test(name));
    expect(secrets.map(([name]) => name)).toContain('authServiceRoleKey');
    const token = await tokenFor(request, ADMIN_EMAIL, ADMIN_PASSWORD);
    const texts: string[] = [];
    for (const p of ['/api/admin/users', '/api/admin/stats', '/api/admin/audit'])
      texts.push(await (await request.get(p, { headers: { Authorization: `Bearer ${token}` } })).text());
    const assets = path.resolve('apps/site/dist/assets');
    for (const file of readdirSync(assets).filter((f) => f.endsWith('.js')))
      texts.push(readFileSync(path.join(assets, file), 'utf8'));
    for (const [name, value] of secrets)
      for (const text of texts) expect(text.includes(value), name).toBe(false);
  });
});
