import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { logOut, nav, openProfile, signUpAndConfirm, uniqueEmail } from './account-helpers';
import { openMail } from './mail-outbox';
import { totp } from './totp';

test.describe('profile', () => {
  test('enrol TOTP on the profile, sign out, sign in with the password and then the code', async ({
    page,
  }) => {
    const email = uniqueEmail('totp');
    const password = 'e2e totp password';
    await signUpAndConfirm(page, email, password);
    await openProfile(page, email);
    await expect(page.getByTestId('profile-page-email')).toHaveText(email);
    await expect(page.getByText('Two-factor authentication is off.')).toBeVisible();

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(
      page.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    // A wrong code is refused in the red alert; the right one turns 2FA on.
    await page.getByLabel('Authentication code').fill('000000' === totp(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid TOTP code entered' })).toBeVisible();
    await page.getByLabel('Authentication code').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Second factors' }).getByRole('listitem')).toHaveCount(1);
    // Its recovery codes, made with it and shown once, to download or copy.
    const codes = await page
      .getByRole('list', { name: 'Your recovery codes' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(codes).toHaveLength(10);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download codes' }).click();
    expect((await download).suggestedFilename()).toMatch(/^recovery-codes-\d{4}-\d{2}-\d{2}\.txt$/);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByText('10 recovery codes left')).toBeVisible();

    // The authenticator lost: a recovery code at the second step, once.
    await logOut(page, email);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('button', { name: 'Lost your authenticator? Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill((codes[0] as string).toLowerCase());
    await page.getByRole('button', { name: 'Use this recovery code' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expect(page.getByText('9 recovery codes left')).toBeVisible();

    await logOut(page, email);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    // Signed in with the password only: the code is asked for before the page.
    await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toHaveCount(0);
    // The app's next code: the one used at enrolment is accepted only once.
    await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

    // A reload keeps the second factor's session (aal2): no code asked again.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

    // Removing the app (confirmed) means the next sign-in needs the password only.
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('The authenticator app was removed.')).toBeVisible();
    await logOut(page, email);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  });

  test('the link in the "Email me a sign-in link" mail signs in, and so does its six-digit code', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('magic');
    await signUpAndConfirm(page, email, 'e2e magic password');
    await logOut(page, email);

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'We sent a sign-in link and a six-digit code' }),
    ).toBeVisible();
    expect(await openMail(page, email, 'Your sign-in link')).toMatch(/Or enter this code: \d{6}/);
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/ediscovery#?$/);
    await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();

    // The code: another account (one mail a minute per address), the code read in a second tab.
    const other = uniqueEmail('code');
    await logOut(page, email);
    await signUpAndConfirm(page, other, 'e2e code password');
    await logOut(page, other);
    await page.getByLabel('Email').fill(other);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const mail = await context.newPage();
    const code = (await openMail(mail, other, 'Your sign-in link')).match(/Or enter this code: (\d{6})/)?.[1];
    await mail.close();
    await page.getByLabel('Six-digit code').fill(code ?? '');
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(nav(page).getByRole('button', { name: `Account menu for ${other}` })).toBeVisible();
  });

  test('an invited user sets a password on /accept-invite and lands signed in', async ({ page, request }) => {
    // The invitation as the admin API sends it (service role); H11's dashboard e2e covers its button.
    const secrets = JSON.parse(
      readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
    );
    const key = secrets.authServiceRoleKey as string;
    const email = uniqueEmail('invited');
    const res = await request.post('/auth/v1/invite?redirect_to=/accept-invite', {
      headers: { apikey: key, Authorization: `Bearer ${key}` },
      data: { email },
    });
    expect(res.status()).toBe(200);
    await openMail(page, email, 'You have been invited');
    await page.getByRole('link', { name: 'Accept the invitation' }).click();
    await expect(page).toHaveURL(/\/accept-invite/);
    await expect(page.getByRole('heading', { level: 1, name: 'Accept your invitation' })).toBeVisible();
    await page.getByLabel('New Password', { exact: true }).fill('invited password');
    await page.getByLabel('Confirm New Password').fill('invited password');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page).toHaveURL(/\/$/);
    const avatar = nav(page).getByRole('button', { name: `Account menu for ${email}` });
    await expect(avatar).toBeVisible();
    // Within the link's origin (the invite's redirect is the server's site URL, which may be localhost).
    await nav(page).getByRole('link', { name: 'Sales Engineer' }).click();
    await logOut(page, email);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('invited password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
  });

  test('an email change is confirmed from both mails', async ({ page }) => {
    const email = uniqueEmail('change');
    const next = uniqueEmail('changed');
    await signUpAndConfirm(page, email, 'e2e change password');
    await openProfile(page, email);
    await page.getByLabel('New email').fill(next);
    await page.getByRole('button', { name: 'Change Email' }).click();
    await expect(page.getByText(`We sent a confirmation link to ${email} and to ${next}.`)).toBeVisible();
    await openMail(page, email, 'Confirm your email change');
    await page.getByRole('link', { name: 'Confirm the change' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Confirmation link accepted' })).toBeVisible();
    await openMail(page, next, 'Confirm your email change');
    await page.getByRole('link', { name: 'Confirm the change' }).click();
    await expect(page).toHaveURL(/\/profile/);
    await expect(page.getByTestId('profile-page-email')).toHaveText(next);
  });

  test('a new password needs the current one; "Delete my account" asks for the address, then the account is gone', async ({
    page,
  }) => {
    const email = uniqueEmail('delete-self');
    await signUpAndConfirm(page, email, 'e2e password 1');
    await openProfile(page, email);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('New Password', { exact: true }).fill('e2e password 2');
    await form.getByLabel('Confirm New Password').fill('e2e password 2');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await expect(form.getByRole('alert')).toHaveText('Enter your current password to choose a new one.');
    await form.getByLabel('Current password').fill('e2e password 1');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await expect(form.getByRole('status')).toHaveText('Your password has been updated.');

    const section = page.getByRole('region', { name: 'Delete my account' });
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await section.getByLabel(`Type ${email} to confirm`).fill(email);
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await section.getByRole('button', { name: 'Delete my account for good' }).click();
    await expect(page.getByText('Your account has been deleted.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Protected Resource' })).toBeVisible();
    // The account is gone: its password signs in no more.
    const config = await (await page.request.get('/config.json')).json();
    const signIn = await page.request.post('/auth/v1/token?grant_type=password', {
      headers: { apikey: config.auth.anonKey },
      data: { email, password: 'e2e password 2' },
    });
    expect(signIn.status()).toBe(400);
  });
});
