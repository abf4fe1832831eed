// Passkeys in a real Chromium with a virtual authenticator (Chrome DevTools Protocol).
// WebAuthn needs a domain as relying party, never an IP address: the spec runs on
// http://localhost:PORT, the server's own public origin (PUBLIC_URL unset: platform/public-origin.ts).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { logOut, nav, openProfile, signUpAndConfirm, uniqueEmail } from './account-helpers';

const origin = `http://localhost:${process.env.E2E_PORT}`;

async function expectAxeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

/** A platform authenticator that holds passkeys and says yes at once (user present and verified). */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

test('add a passkey on the profile, sign out, sign in with it alone; removed, it is refused with a message', async ({
  page,
}) => {
  const email = uniqueEmail('passkey');
  const authenticator = await addVirtualAuthenticator(page);
  await signUpAndConfirm(page, email, 'e2e passkey password', origin);
  await openProfile(page, email);

  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible();
  await passkeys.getByLabel('Passkey name').fill('E2E laptop');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByText('Passkey added. You can now sign in with it.')).toBeVisible();
  const list = passkeys.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('E2E laptop');
  await expect(list.getByRole('listitem')).toContainText('Last used Never');
  expect(await authenticator.credentials()).toHaveLength(1);

  // Renamed.
  await list.getByRole('button', { name: 'Rename E2E laptop' }).click();
  await list.getByLabel('New name').fill('Work laptop');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(passkeys.getByText('Passkey renamed.')).toBeVisible();
  await expect(list.getByRole('listitem')).toContainText('Work laptop');
  await expectAxeClean(page);

  // The passkey alone signs in from the auth card.
  await logOut(page, email);
  await expectAxeClean(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
  await openProfile(page, email);
  await expect(list.getByRole('listitem')).not.toContainText('Last used Never');

  // And from the email field's autofill (conditional UI): this browser holds a passkey of the site, so
  // focusing the field asks for one, which the virtual authenticator gives as a user's pick would.
  await logOut(page, email);
  const field = page.getByRole('form', { name: 'Sign in' }).getByLabel('Email');
  await expect(field).toHaveAttribute('autocomplete', 'username webauthn');
  await field.focus();
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
  await openProfile(page, email);

  // Removed (after a confirmation), the passkey still on the device is refused with a message.
  await list.getByRole('button', { name: 'Remove Work laptop' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(passkeys.getByText('Passkey removed.')).toBeVisible();
  await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible();
  await logOut(page, email);
  await page.goto(`${origin}/sign-in`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'this passkey is not registered' })).toBeVisible();
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toHaveCount(0);
});
