import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

// OAuth clients in the admin dashboard: create one, see its secret once, delete it. Its
// own admin (E2E_ADMINS in playwright.config.ts); the client names are unique, other specs' clients
// may be listed too.
const ADMIN_EMAIL = 'oauth-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;

test('an admin creates an OAuth client, sees its secret once, and deletes it, at 320 px', async ({
  page,
  request,
}) => {
  const name = `Partner ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/admin?section=apps');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(ADMIN_EMAIL);
  await form.getByLabel('Password').fill(ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();

  const panel = page.getByRole('region', { name: 'OAuth clients' });
  await panel.getByLabel('Client name').fill(name);
  await panel.getByLabel('Redirect URIs (one per line)').fill('https://partner.example/callback');
  await panel.getByRole('button', { name: 'Create client' }).click();

  const secretBox = panel.getByLabel(`Client secret of ${name}`);
  await expect(secretBox).toHaveValue(/^[\w-]{43}$/);
  const secret = await secretBox.inputValue();
  const item = panel.getByRole('listitem').filter({ hasText: name });
  await expect(item).toContainText('(confidential)');
  await expect(item).toContainText('Redirects to https://partner.example/callback');

  const fits = await panel.evaluate(
    (el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= 320,
  );
  expect(fits).toBe(true);
  await panel.evaluate((el) => el.setAttribute('data-axe-oauth', ''));
  const axe = await new AxeBuilder({ page }).include('[data-axe-oauth]').analyze();
  expect(axe.violations).toEqual([]);

  // Never shown again: not after Done, not after a reload.
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(panel.getByLabel(/Client secret/)).toHaveCount(0);
  await page.reload();
  await expect(panel.getByRole('listitem').filter({ hasText: name })).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  await panel.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete OAuth client' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);

  // Signed out, the API answers nothing.
  const anonymous = await request.get('/api/admin/oauth-clients');
  expect(anonymous.status()).toBe(401);
});
