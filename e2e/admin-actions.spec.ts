import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { openOutbox } from './mail-outbox';

// The account actions of the admin dashboard, each followed through the mail it sends.
// Its own admin (E2E_ADMINS in playwright.config.ts): a log-out elsewhere revokes every session of
// an account, and specs run two at a time. The users acted on are made fresh by each test.
const ADMIN_EMAIL = 'actions-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function anonKey(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/config.json')).json()) as { auth: { anonKey: string } }).auth.anonKey;
}

async function passwordGrant(request: APIRequestContext, email: string, password: string) {
  const key = await anonKey(request);
  return request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    data: { email, password },
  });
}

/** A confirmed account made through the admin API (the dashboard's own create route). */
async function createUser(request: APIRequestContext, email: string, password: string) {
  const admin = await passwordGrant(request, ADMIN_EMAIL, ADMIN_PASSWORD);
  const token = (await admin.json()).access_token as string;
  const res = await request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${token}` },
    data: { email, password },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function openDashboard(page: Page) {
  await page.goto('/admin?section=users');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(ADMIN_EMAIL);
  await form.getByLabel('Password').fill(ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
}

/** Searches for the user and waits until the list shows that row alone (the search has settled). */
async function searchRow(page: Page, email: string) {
  await page.getByPlaceholder('Search by email...').fill(email);
  await expect(page.getByRole('button', { name: /^Actions for / })).toHaveCount(1);
  return page.getByRole('button', { name: `Actions for ${email}` });
}

/** Finds the user's row by search and picks an item of its actions menu. */
async function rowAction(page: Page, email: string, item: string) {
  const menuButton = await searchRow(page, email);
  // A list refetch re-renders the row and closes an open menu (seen in CI, the item detached under
  // the click), so the menu is opened again until the item takes the click.
  await expect(async () => {
    if ((await menuButton.getAttribute('aria-expanded')) !== 'true') await menuButton.click();
    await page.getByRole('menuitem', { name: item }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** In a browser of the mail's recipient (not the admin's): opens the newest such mail and follows its link. */
async function followMail(browser: Browser, to: string, subject: string, linkName: RegExp) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openOutbox(page);
  const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject }).first();
  await row.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await page.getByRole('link', { name: linkName }).click();
  return page;
}

test.describe('admin account actions in Chromium', () => {
  test('invite → the invitee sets a password on the accept-invite page → signed in', async ({
    page,
    browser,
    request,
  }) => {
    const email = `e2e-invite-${run}@example.com`;
    await openDashboard(page);
    const form = page.getByRole('form', { name: 'Invite user' });
    await form.getByLabel('Email to invite').fill(email);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
    const users = page.getByRole('region', { name: /^Users/ });
    await page.getByPlaceholder('Search by email...').fill(email);
    await expect(users.getByRole('listitem').filter({ hasText: email })).toContainText('Unverified');

    const invitee = await followMail(browser, email, 'You have been invited', /Accept the invitation/);
    await expect(invitee).toHaveURL(/\/accept-invite/);
    await expect(invitee.getByRole('heading', { level: 1, name: 'Accept your invitation' })).toBeVisible();
    const set = invitee.getByRole('form', { name: 'Set your password' });
    await set.getByLabel('New Password', { exact: true }).fill('invited password');
    await set.getByLabel('Confirm New Password').fill('invited password');
    await set.getByRole('button', { name: 'Set Password' }).click();
    // The invitation's link already signed the invitee in (the avatar shows before the password is
    // set): wait for the page's word that the password is set before closing its browser.
    await expect(invitee.getByText('Your password is set. Welcome!')).toBeVisible();
    await expect(nav(invitee).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
    await invitee.context().close();

    // The password set there is the account's password from now on.
    expect((await passwordGrant(request, email, 'invited password')).status()).toBe(200);
  });

  test('magic link from the actions menu → the link signs the user in', async ({
    page,
    browser,
    request,
  }) => {
    const email = `e2e-magic-${run}@example.com`;
    await createUser(request, email, 'magic user password');
    await openDashboard(page);
    await rowAction(page, email, 'Send magic link');
    await expect(page.getByText(`Sign-in link sent to ${email}`)).toBeVisible();

    const user = await followMail(browser, email, 'Your sign-in link', /^Sign in$/);
    await expect(nav(user).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
    await user.context().close();
  });

  test('password recovery from the actions menu → the link asks for a new password, which then signs in', async ({
    page,
    browser,
    request,
  }) => {
    const email = `e2e-recover-${run}@example.com`;
    await createUser(request, email, 'old recovery password');
    await openDashboard(page);
    await rowAction(page, email, 'Send password recovery');
    await expect(page.getByText(`Password recovery link sent to ${email}`)).toBeVisible();

    const user = await followMail(browser, email, 'Reset your password', /Reset password/);
    const dialog = user.getByRole('dialog', { name: 'Choose a new password' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('New Password', { exact: true }).fill('new recovery password');
    await dialog.getByLabel('Confirm New Password').fill('new recovery password');
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await expect(user.getByText('Your password has been updated.')).toBeVisible();
    await user.context().close();

    expect((await passwordGrant(request, email, 'old recovery password')).status()).toBe(400);
    expect((await passwordGrant(request, email, 'new recovery password')).status()).toBe(200);
  });

  test('ban (confirmed, with a length) refuses sign-in, unban allows it; sign out everywhere ends sessions; details; CSV; axe clean', async ({
    page,
    request,
  }) => {
    const email = `e2e-ban-${run}@example.com`;
    await createUser(request, email, 'ban user password');
    const session = await (await passwordGrant(request, email, 'ban user password')).json();
    await openDashboard(page);

    // The menu and the ban dialog are reachable and clean for assistive technology.
    const menuButton = await searchRow(page, email);
    await expect(async () => {
      if ((await menuButton.getAttribute('aria-expanded')) !== 'true') await menuButton.click();
      await expect(page.getByRole('menu')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const menuAxe = await new AxeBuilder({ page }).analyze();
    expect(menuAxe.violations.map((v) => v.id)).toEqual([]);
    // Escape closes the menu (whether or not the scan's own work already did) and the next action reopens it.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await rowAction(page, email, 'Sign out everywhere');
    const signOut = page.getByRole('alertdialog', { name: 'Sign out everywhere' });
    await signOut.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByText(`${email} is signed out everywhere`)).toBeVisible();
    const key = await anonKey(request);
    const refreshed = await request.post('/auth/v1/token?grant_type=refresh_token', {
      headers: { apikey: key, Authorization: `Bearer ${key}` },
      data: { refresh_token: session.refresh_token },
    });
    expect(refreshed.status()).toBe(400);

    await rowAction(page, email, 'Ban user');
    const ban = page.getByRole('alertdialog', { name: 'Ban user' });
    await ban.getByLabel('Ban length').selectOption({ label: '24 hours' });
    const banAxe = await new AxeBuilder({ page }).analyze();
    expect(banAxe.violations.map((v) => v.id)).toEqual([]);
    await ban.getByRole('button', { name: 'Ban' }).click();
    await expect(page.getByText(`${email} is banned`)).toBeVisible();
    const users = page.getByRole('region', { name: /^Users/ });
    // The badge says until when (24 hours from now).
    await expect(users.getByText(/^Banned until /)).toBeVisible();
    const refused = await passwordGrant(request, email, 'ban user password');
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ error_code: 'user_banned' });

    await rowAction(page, email, 'View details');
    const details = page.getByRole('dialog', { name: 'User details' });
    await expect(details).toContainText('Banned until');
    await expect(details).toContainText('"provider": "email"');
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    await rowAction(page, email, 'Unban user');
    await page
      .getByRole('alertdialog', { name: 'Unban user' })
      .getByRole('button', { name: 'Unban' })
      .click();
    await expect(page.getByText(`${email} can sign in again`)).toBeVisible();
    expect((await passwordGrant(request, email, 'ban user password')).status()).toBe(200);

    // Export CSV downloads the searched list.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await file.path()) as string, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'id,email,created_at,email_confirmed_at,last_sign_in_at,role,banned_until',
    );
    expect(csv).toContain(`,${email},`);
    expect(csv.trim().split('\r\n')).toHaveLength(2);

    const pageAxe = await new AxeBuilder({ page }).analyze();
    expect(pageAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' '))}`)).toEqual([]);
  });
});
