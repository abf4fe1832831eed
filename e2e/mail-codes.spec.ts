import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chooseCardTab } from './account-helpers';
import { openMail } from './mail-outbox';

// Every mail that says "Or enter this code" has a place for the code on the site (the
// sign-up confirmation's is walked in new-user.spec.ts, the sign-in link's in profile.spec.ts).
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** The six-digit code of the newest mail of a kind to an address, read in a tab of its own. */
async function mailedCode(page: Page, to: string, subject: string): Promise<string> {
  const mail = await page.context().newPage();
  const text = await openMail(mail, to, subject);
  await mail.close();
  const code = /Or enter this code: (\d{6})/.exec(text)?.[1];
  expect(code, `a code in "${subject}"`).toBeDefined();
  return code ?? '';
}

/** A fresh account, confirmed with its mail's code: signed in at the end. */
async function signUpByCode(page: Page, email: string, password: string) {
  await page.goto('/sign-up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  // Signed up (the mail is in the outbox once the answer is shown): its code.
  const code = page.getByLabel('Six-digit code');
  await expect(code).toBeVisible();
  await code.fill(await mailedCode(page, email, 'Confirm your signup'));
  await page.getByRole('button', { name: 'Verify Code' }).click();
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
}

/** A fresh account that logs out and asks for a password reset on a guarded page's Reset tab. */
async function signedUpThenReset(page: Page, email: string) {
  await signUpByCode(page, email, 'e2e first password');
  const avatar = nav(page).getByRole('button', { name: `Account menu for ${email}` });
  await avatar.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  // Navigating before the sign-out has finished would load the page still signed in, without the auth card.
  await expect(avatar).toHaveCount(0);
  await page.goto('/ediscovery');
  await chooseCardTab(page, 'Reset');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  return avatar;
}

test("an invited user types the invitation's code on /accept-invite, then sets a password", async ({
  page,
  request,
}) => {
  const secrets = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
  ) as Record<string, string>;
  const key = secrets.authServiceRoleKey as string;
  const email = uniqueEmail('invite-code');
  const res = await request.post('/auth/v1/invite?redirect_to=/accept-invite', {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    data: { email },
  });
  expect(res.status()).toBe(200);
  await page.goto('/accept-invite');
  const code = await mailedCode(page, email, 'You have been invited');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Six-digit code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Accept Invitation' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That code is wrong or has expired' }),
  ).toBeVisible();
  await page.getByLabel('Six-digit code').fill(code);
  await page.getByRole('button', { name: 'Accept Invitation' }).click();
  await page.getByLabel('New Password', { exact: true }).fill('invited by code');
  await page.getByLabel('Confirm New Password').fill('invited by code');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
});

test('an email change is confirmed with the codes of its two mails', async ({ page }) => {
  const email = uniqueEmail('change-code');
  const next = uniqueEmail('changed-code');
  await signUpByCode(page, email, 'e2e change by code');

  await page.goto('/profile');
  await page.getByLabel('New email').fill(next);
  await page.getByRole('button', { name: 'Change Email' }).click();
  const form = page.getByRole('form', { name: 'Confirm the change with codes' });
  await form
    .getByLabel(`Code from the mail to ${email}`)
    .fill(await mailedCode(page, email, 'Confirm your email change'));
  await form
    .getByLabel(`Code from the mail to ${next}`)
    .fill(await mailedCode(page, next, 'Confirm your email change'));
  await form.getByRole('button', { name: 'Confirm Change' }).click();
  await expect(form.getByText(`Your email address is now ${next}.`)).toBeVisible();
  await expect(page.getByTestId('profile-page-email')).toHaveText(next);
});

test("a reset link's prompt survives a reload, and Back does not return to the link's tokens", async ({
  page,
}) => {
  const email = uniqueEmail('reset-reload');
  await signedUpThenReset(page, email);
  await expect(page.getByText('Check your email for the password reset link!')).toBeVisible();

  await openMail(page, email, 'Reset your password');
  const mailPage = page.url();
  await page.getByRole('link', { name: 'Reset password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a new password' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/ediscovery$/);
  // The page's ENGAGE stays under the dialog's dimmed backdrop: a press there meets the backdrop.
  const engage = page.getByRole('button', { name: 'ENGAGE', includeHidden: true });
  const box = (await engage.boundingBox())!;
  const hit = await page.evaluate(
    ({ x, y }) => (document.elementFromPoint(x, y)?.closest('engage-widget') ? 'the widget' : 'the backdrop'),
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(hit).toBe('the backdrop');

  await page.reload();
  await expect(dialog).toBeVisible();

  await page.goBack();
  expect(page.url()).toBe(mailPage);
  await page.goForward();
  expect(page.url()).not.toContain('access_token');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('New Password', { exact: true }).fill('e2e second password');
  await dialog.getByLabel('Confirm New Password').fill('e2e second password');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Your password has been updated.')).toBeVisible();
  await page.reload();
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test("a reset mail's code, typed on the Reset tab, asks for the new password as its link does", async ({
  page,
}) => {
  const email = uniqueEmail('reset-code');
  const avatar = await signedUpThenReset(page, email);
  const form = page.getByRole('form', { name: 'Reset with a code' });
  await expect(form.getByText('Check your email for the password reset link!')).toBeVisible();
  await form.getByLabel('Six-digit code').fill(await mailedCode(page, email, 'Reset your password'));
  await form.getByRole('button', { name: 'Verify Code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a new password' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('New Password', { exact: true }).fill('e2e password by code');
  await dialog.getByLabel('Confirm New Password').fill('e2e password by code');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Your password has been updated.')).toBeVisible();
  await expect(avatar).toBeVisible();
});
