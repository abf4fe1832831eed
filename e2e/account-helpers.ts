// Fresh accounts for the specs that need a signed-in user of their own: sign up, confirm through
// the outbox, open the profile, log out. No bootstrap admin is shared, and a log-out revokes only
// the spec's own sessions.
import { expect, type Page } from '@playwright/test';
import { openMail } from './mail-outbox';

export const SIGNUP_SUCCESS =
  'Check your email. If this address is new here, we sent a link and a six-digit code to confirm it: confirm it before you sign in (an admin has been told of your sign-up). If it already has an account, the mail says how to sign in.';

export const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
export const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Chooses a tab of the sign-in card. On a prerendered page the card is shown before its code has run:
 * the press is replayed then, so the tab is waited for before its fields are used.
 */
export async function chooseCardTab(page: Page, name: 'Sign In' | 'Sign Up' | 'Reset') {
  const tab = page.getByRole('tab', { name });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** Fills and sends the sign-in card's Sign Up tab (the page is open), up to its success message. */
export async function signUpInCard(page: Page, email: string, password: string) {
  await chooseCardTab(page, 'Sign Up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByText(SIGNUP_SUCCESS)).toBeVisible();
}

/**
 * Signs up on the sign-in page and follows the mailed confirmation link: signed in after. `origin`
 * (default: the configured base URL) is where the page is opened and where the link must lead.
 */
export async function signUpAndConfirm(page: Page, email: string, password: string, origin = '') {
  await page.goto(`${origin}/ediscovery`);
  await signUpInCard(page, email, password);
  await openMail(page, email, 'Confirm your signup');
  await page.getByRole('link', { name: /Confirm your email address/ }).click();
  if (origin) await expect(page).toHaveURL(new RegExp(`^${origin}/`));
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
}

/** Opens "Profile and security" from the account menu. */
export async function openProfile(page: Page, email: string) {
  await nav(page)
    .getByRole('button', { name: `Account menu for ${email}` })
    .click();
  await page.getByRole('menuitem', { name: 'Profile and security' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
}

export async function logOut(page: Page, email: string) {
  await nav(page)
    .getByRole('button', { name: `Account menu for ${email}` })
    .click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Protected Resource' })).toBeVisible();
}
