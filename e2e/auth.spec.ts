import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chooseCardTab, nav, signUpInCard, uniqueEmail } from './account-helpers';
import { openOutbox } from './mail-outbox';

const PROTECTED_TEXT =
  "This area requires authentication. Sign up if you'd like access and we'll get you set up.";

/** Opens the newest mail of a kind to an address in the /_mail outbox and follows its link. */
async function followMailLink(page: Page, to: string, subject: string, linkName: RegExp) {
  await openOutbox(page);
  const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject }).first();
  await row.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await page.getByRole('link', { name: linkName }).click();
}

async function signInInCard(page: Page, email: string, password: string) {
  await chooseCardTab(page, 'Sign In');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function logOut(page: Page, email: string) {
  await nav(page)
    .getByRole('button', { name: `Account menu for ${email}` })
    .click();
  await expect(page.getByRole('menu')).toContainText('Profile');
  await expect(page.getByRole('menu')).toContainText(email);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
}

test.describe('accounts', () => {
  test('an anonymous visitor sees the Protected Resource screen with the auth card (axe clean)', async ({
    page,
  }) => {
    await page.goto('/kb-import');
    await expect(page.getByRole('heading', { name: 'Protected Resource' })).toBeVisible();
    await expect(page.getByText(PROTECTED_TEXT)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await expect(page.getByText('Sign in to your account or create a new one')).toBeVisible();
    for (const tab of ['Sign In', 'Sign Up', 'Reset'])
      await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Email')).toHaveAttribute('required', '');
    const background = await page.getByRole('main').evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(background).toContain('/auth-bg.svg');
    // The tabs work from the keyboard (once the card's code runs: its markup shows before).
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await page.getByRole('tab', { name: 'Sign In' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await expect(nav(page).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  });

  test('sign up, confirm from the mail, land signed in on the page, log out and be guarded again', async ({
    page,
  }) => {
    const email = uniqueEmail('signup');
    const password = 'e2e password 1';
    await page.goto('/onboarding');
    await chooseCardTab(page, 'Sign Up');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill('something else');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();
    await signUpInCard(page, email, password);

    // Not confirmed yet: the service's own message in the red alert.
    await signInInCard(page, email, password);
    await expect(page.getByRole('alert').filter({ hasText: 'Email not confirmed' })).toBeVisible();

    await followMailLink(page, email, 'Confirm your signup', /Confirm your email address/);
    await expect(page).toHaveURL(/\/onboarding#?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('c a s e . o n b o a r d i n g');
    // Said where the link lands, not left to guess from the avatar.
    await expect(
      page.getByRole('status').filter({ hasText: 'Your email address is confirmed' }),
    ).toBeVisible();
    const avatar = nav(page).getByRole('button', { name: `Account menu for ${email}` });
    await expect(avatar).toHaveText(email[0]?.toUpperCase() as string);
    await expect(nav(page).getByRole('link', { name: 'Admin' })).toHaveCount(0);

    // The session survives a reload; the confirmation was said once.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('c a s e . o n b o a r d i n g');
    await expect(page.getByText('Your email address is confirmed')).toHaveCount(0);

    await logOut(page, email);
    await expect(page.getByText(PROTECTED_TEXT)).toBeVisible();
    await expect(avatar).toHaveCount(0);

    // The link is single-use: following it again explains why nobody is signed in.
    await followMailLink(page, email, 'Confirm your signup', /Confirm your email address/);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Email link is invalid or has expired' }),
    ).toBeVisible();
    await expect(avatar).toHaveCount(0);
  });

  test('a wrong password shows the red alert', async ({ page }) => {
    await page.goto('/ediscovery');
    await signInInCard(page, 'admin@example.com', 'definitely-wrong');
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid login credentials' });
    await expect(alert).toBeVisible();
    await expect(alert).toHaveAttribute('data-variant', 'destructive');
  });

  test('reset: the email is required, the link signs in and asks for a new password', async ({ page }) => {
    const email = uniqueEmail('reset');
    await page.goto('/ediscovery');
    await signUpInCard(page, email, 'first password');
    await followMailLink(page, email, 'Confirm your signup', /Confirm your email address/);
    await logOut(page, email);

    await chooseCardTab(page, 'Reset');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Please enter your email address' }),
    ).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Check your email for the password reset link!')).toBeVisible();

    await followMailLink(page, email, 'Reset your password', /Reset password/);
    const dialog = page.getByRole('dialog', { name: 'Choose a new password' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('New Password', { exact: true }).fill('second password');
    await dialog.getByLabel('Confirm New Password').fill('second password');
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Your password has been updated.')).toBeVisible();

    await logOut(page, email);
    await signInInCard(page, email, 'first password');
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid login credentials' })).toBeVisible();
    await signInInCard(page, email, 'second password');
    await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
  });

  test('the Admin link appears for the bootstrap admin only', async ({ page }) => {
    await page.goto('/ediscovery');
    await signInInCard(page, 'admin@example.com', process.env.E2E_ADMIN_PASSWORD as string);
    const admin = nav(page).getByRole('link', { name: 'Admin' });
    await expect(admin).toBeVisible();
    await admin.click();
    await expect(page).toHaveURL(/\/admin$/);
    await logOut(page, 'admin@example.com');
    await expect(admin).toHaveCount(0);
  });
});
