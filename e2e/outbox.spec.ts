import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { chooseCardTab } from './account-helpers';
import { openOutbox, outboxToken } from './mail-outbox';

// The mail outbox behind its token, and the outbox in the admin dashboard. Its own admin
// (E2E_ADMINS in playwright.config.ts); every mail it reads is one it caused.
const ADMIN_EMAIL = 'outbox-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Signs a fresh address up through the auth API: the server puts its confirmation mail in the outbox. */
async function signUp(request: APIRequestContext, email: string) {
  const config = (await (await request.get('/config.json')).json()) as { auth: { anonKey: string } };
  const res = await request.post('/auth/v1/signup', {
    headers: { apikey: config.auth.anonKey },
    data: { email, password: 'outbox spec password' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe('the mail outbox', () => {
  test('the reported attack: signed out, a reset for the admin, then /_mail is locked', async ({
    page,
    request,
  }) => {
    await page.goto('/ediscovery');
    await chooseCardTab(page, 'Reset');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Check your email for the password reset link!')).toBeVisible();

    const response = await page.goto('/_mail');
    expect(response?.status()).toBe(401);
    await expect(page.getByRole('heading', { level: 1, name: 'Outbox locked' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reset your password' })).toHaveCount(0);
    await expect(page.getByText(ADMIN_EMAIL)).toHaveCount(0);
    // As a reverse proxy on the same host would send it: still locked.
    const proxied = await request.get('/_mail', {
      headers: { 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Proto': 'https' },
    });
    expect(proxied.status()).toBe(401);
    expect(await proxied.text()).not.toContain(ADMIN_EMAIL);
  });

  test('the printed URL opens it: the token leaves the address bar, a Strict HttpOnly cookie stays', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('outbox');
    await signUp(request, email);
    await openOutbox(page);
    await expect(page).toHaveURL(/\/_mail$/);
    expect(page.url()).not.toContain(outboxToken());
    await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'engage_outbox');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/_mail', secure: false });

    const row = page.getByRole('row').filter({ hasText: email });
    const detail = page.waitForResponse((r) => /\/_mail\/[0-9a-f-]{36}$/.test(r.url()));
    await row.getByRole('link', { name: 'Confirm your signup' }).click();
    expect((await detail).headers()['referrer-policy']).toBe('no-referrer');
    await expect(page.getByRole('link', { name: 'Confirm your email address' })).toHaveAttribute(
      'href',
      /\/auth\/v1\/verify\?token=/,
    );
  });

  test('an admin sees the outbox in the dashboard, readable at 320 px', async ({ page, request }) => {
    const email = uniqueEmail('outbox-panel');
    await signUp(request, email);
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto('/admin?section=mail');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(ADMIN_EMAIL);
    await form.getByLabel('Password').fill(ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();

    const panel = page.getByRole('region', { name: 'Mail outbox' });
    const mail = panel.getByRole('listitem').filter({ hasText: `To ${email}` });
    await expect(mail.getByText('Confirm your signup')).toBeVisible();
    // Its link and code stay hidden until the admin reveals this one mail (audited).
    await expect(mail).not.toContainText('verify?token=');
    await mail
      .getByRole('button', { name: `Reveal links and code: Confirm your signup, for ${email}` })
      .click();
    await expect(mail.locator('code')).toHaveText(/\/auth\/v1\/verify\?token=/);
    await expect(
      mail.getByRole('button', { name: `Copy link: Confirm your email address, for ${email}` }),
    ).toBeVisible();
    // The panel fits the phone's width: nothing in it scrolls sideways.
    const fits = await panel.evaluate(
      (el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= 320,
    );
    expect(fits).toBe(true);
    await panel.evaluate((el) => el.setAttribute('data-axe-outbox', ''));
    const axe = await new AxeBuilder({ page }).include('[data-axe-outbox]').analyze();
    expect(axe.violations).toEqual([]);
    // The reveal is in the audit log, in the Activity section.
    await page.getByRole('tab', { name: 'Activity' }).click();
    await expect(page.getByRole('region', { name: 'Recent admin activity' })).toContainText(
      `revealed the links of a mail to ${email}`,
    );
  });
});
