import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  chartCard,
  expectInsideWidth,
  expectNoSidewaysScroll,
  expectTitle,
  expectUncovered,
  nav,
  overlaps,
  signedIn,
  expectWholePlaceholder,
} from './layout-helpers';

// Its own admin (see E2E_ADMINS in playwright.config.ts): no other spec signs in or out with it.
const ADMIN_EMAIL = 'phone-admin@example.com';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

for (const width of [320, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test('every page fits the width of the phone', async ({ page }) => {
      const config = await (await page.request.get('/config.json')).json();
      await page.goto('/');
      await expectTitle(page, config.ownerDomain);
      await expectNoSidewaysScroll(page, '/');

      // A visitor finds Sign in and Sign up in the phone menu; the page fits too.
      await expect(page.locator('#root[data-hydrated]')).toBeAttached();
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(page.getByRole('link', { name: 'Sign up' })).toBeVisible();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await expectNoSidewaysScroll(page, '/sign-in');

      // Signed out, a guarded page shows the sign-in card.
      await page.goto('/onboarding');
      await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
      await expectNoSidewaysScroll(page, 'the sign-in card');

      await signedIn(page, ADMIN_EMAIL);
      await page.goto('/ediscovery');
      await expectTitle(page, 'sales engineer');
      await expectNoSidewaysScroll(page, '/ediscovery');

      await page.goto('/onboarding');
      await expectTitle(page, 'case.onboarding');
      await expectNoSidewaysScroll(page, '/onboarding');

      await page.goto('/profile');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page, '/profile');

      await page.goto('/kb-import');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Vapi Knowledge Base Bulk Import Tool' }),
      ).toBeVisible();
      await expectNoSidewaysScroll(page, '/kb-import');
    });

    test('the admin dashboard fits: its cards, its users and its forms', async ({ page }) => {
      const token = await signedIn(page, ADMIN_EMAIL);
      // A verified user and a pending one with long addresses, so both lists have rows to lay out.
      const verified = `phone-layout-verified-with-a-long-address-${width}-${run}@example.com`;
      const pending = `phone-layout-pending-with-a-long-address-${width}-${run}@example.com`;
      const created = await page.request.post('/api/admin/users', {
        headers: { Authorization: `Bearer ${token}` },
        data: { email: verified, password: 'phone-layout-password' },
      });
      expect(created.status(), await created.text()).toBe(201);
      const config = await (await page.request.get('/config.json')).json();
      const signup = await page.request.post('/auth/v1/signup', {
        headers: { apikey: config.auth.anonKey },
        data: { email: pending, password: 'phone-layout-password' },
      });
      expect(signup.status(), await signup.text()).toBe(200);

      await page.goto('/admin');
      await expect(page.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
      await expect(page.getByLabel(/^Total Users: \d+$/)).toBeVisible();
      await expect(page.getByRole('img', { name: /^Sign-ups per day/ })).toBeVisible();
      // The sections' tabs wrap rather than widen the page.
      await expectNoSidewaysScroll(page, '/admin');
      await expectInsideWidth(page, page.getByRole('tab', { name: 'Embed' }), 'the last section tab');
      await expectInsideWidth(
        page,
        page.getByText('Manage users, verify emails, and create new accounts'),
        'the subtitle',
      );
      const stats = page.getByRole('group', { name: 'User statistics' });
      for (const icon of await stats.locator('svg').all()) await expectInsideWidth(page, icon, 'a stat icon');
      const dates = chartCard(page).getByText(/^\d{4}-\d{2}-\d{2}$/);
      await expectInsideWidth(page, dates.first(), 'the chart’s start date');
      await expectInsideWidth(page, dates.last(), 'the chart’s end date');

      // The outbox's links get the card's width, not a sliver. Any mail's link: other specs' sign-ups mail
      // every admin, and may push the pending user's own mail past the outbox's newest 50.
      // Links are hidden until a mail is revealed: reveal the newest that has one.
      await page.getByRole('tab', { name: 'Mail outbox' }).click();
      const mails = page.getByRole('list', { name: 'Mails, newest first' });
      // Not an admin's "New signup" notice (other specs' sign-ups send them meanwhile): it has no link
      // to show once revealed.
      const reveal = mails.getByRole('button', { name: /^Reveal links and code: (?!New signup)/ }).first();
      await expectInsideWidth(page, reveal, 'the reveal button');
      await reveal.click();
      const link = mails.locator('code').first();
      await expect(link).toBeVisible();
      const linkBox = await link.boundingBox();
      expect(linkBox!.width, 'the link column').toBeGreaterThan(width * 0.6);

      await page.getByRole('tab', { name: 'Users' }).click();
      await page.getByPlaceholder('Search by email...').fill(`phone-layout-`);
      const userList = page.getByRole('region', { name: /^Users/ });
      const verifiedRow = userList.getByRole('listitem').filter({ hasText: verified });
      await expect(verifiedRow).toBeVisible();
      await expect(userList.getByRole('listitem').filter({ hasText: pending })).toContainText('Unverified');
      await expectNoSidewaysScroll(page, '/admin?section=users');
      // The search box shows its whole placeholder ("Search by e" was all a phone showed).
      const search = page.getByPlaceholder('Search by email...');
      await search.fill('');
      await expectWholePlaceholder(search);
      await search.fill('phone-layout-');

      // The row's badge is not under its controls, and its controls are all there.
      await expectUncovered(verifiedRow.getByText('Verified', { exact: true }), 'the Verified badge');
      await expectUncovered(verifiedRow.getByText(verified), 'the address');
      await expectUncovered(verifiedRow.getByRole('button', { name: `Delete ${verified}` }), 'Delete');
      await expectInsideWidth(
        page,
        verifiedRow.getByRole('button', { name: `Delete ${verified}` }),
        'Delete',
      );

      // A form's error is said once, beside the form (not also in a toast).
      await page.getByRole('button', { name: 'Create User' }).click();
      await expect(page.getByText('Please provide both email and password')).toHaveCount(1);
      await expect(page.getByText('Please provide both email and password')).toBeVisible();

      // A toast stays clear of the navigation and its avatar.
      await page.getByRole('button', { name: /Export CSV/ }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Users exported' });
      await expect(toast).toBeVisible();
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      const toastBox = await toast.boundingBox();
      const bannerBox = await page.getByRole('banner').boundingBox();
      expect(overlaps(toastBox!, bannerBox!), 'the toast covers the navigation').toBe(false);
      await expectNoSidewaysScroll(page, '/admin with a toast');

      // Leave nothing behind.
      for (const email of [verified, pending]) {
        const list = await page.request.get(
          `/api/admin/users?status=${email === verified ? 'verified' : 'unverified'}&search=${encodeURIComponent(email)}`,
          {
            headers: { Authorization: `Bearer ${token}` },
          },
        );
        for (const user of (await list.json()).users as { id: string }[]) {
          await page.request.delete(`/api/admin/users/${user.id}`, {
            headers: { Authorization: `Bearer ${token}` },
          });
        }
      }
    });

    test('the landing text says the engage button is at the bottom, where a phone puts it', async ({
      page,
    }) => {
      await page.goto('/');
      const subtitle = page.getByText(
        'Tap the engage button at the bottom of the screen to start a conversation.',
      );
      await expect(subtitle).toBeVisible();
      await expect(page.getByText(/on the left/)).toBeHidden();
      // And it is: below the text.
      const engage = (await page.getByRole('button', { name: 'ENGAGE' }).boundingBox())!;
      expect(engage.y).toBeGreaterThan((await subtitle.boundingBox())!.y);
    });

    test('the navigation is one row with a menu button that works by keyboard', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('#root[data-hydrated]')).toBeAttached();
      const menu = nav(page).getByRole('button', { name: 'Menu', exact: true });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(nav(page).getByRole('link', { name: 'Sales Engineer' })).toBeHidden();
      const closedHeight = (await page.getByRole('banner').boundingBox())!.height;
      expect(closedHeight, 'the navigation wraps').toBeLessThan(64);

      // Tab reaches it after the site's title; Enter opens the links it controls.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(menu).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      const panel = page.locator(`#${await menu.getAttribute('aria-controls')}`);
      await expect(panel.getByRole('link', { name: 'Sales Engineer' })).toBeVisible();
      await expect(panel.getByRole('link', { name: 'Project Onboarding' })).toBeVisible();
      await expect(panel.getByRole('link', { name: 'KB Import' })).toBeVisible();
      await expectNoSidewaysScroll(page, 'the open menu');

      // Escape closes it and gives focus back to the button.
      await page.keyboard.press('Tab');
      await expect(panel.getByRole('link', { name: 'Sales Engineer' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(menu).toBeFocused();
      await expect(nav(page).getByRole('link', { name: 'Sales Engineer' })).toBeHidden();

      // Space opens it too; following a link closes it.
      await page.keyboard.press('Space');
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(panel.getByRole('link', { name: 'Project Onboarding' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/onboarding$/);
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
    });

    test('the avatar menu open: axe finds nothing and the landmarks stay', async ({ page }) => {
      await signedIn(page, ADMIN_EMAIL);
      await page.goto('/');
      await expect(page.locator('#root[data-hydrated]')).toBeAttached();
      const avatar = page.getByRole('button', { name: `Account menu for ${ADMIN_EMAIL}` });
      await avatar.click();
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
      const axe = await new AxeBuilder({ page }).analyze();
      expect(
        axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(nav(page)).toBeVisible();
      await expect(page.getByRole('main')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(page.getByRole('button', { name: `Account menu for ${ADMIN_EMAIL}` })).toBeFocused();
    });

    test('tabs show the focus ring for the keyboard, not for a click', async ({ page }) => {
      await signedIn(page, ADMIN_EMAIL);
      await page.goto('/kb-import');
      const files = page.getByRole('tab', { name: 'Files' });
      await files.click();
      await expect(files).toBeFocused();
      await expect(files).toHaveCSS('outline-style', 'none');
      await page.keyboard.press('ArrowRight');
      const next = page.getByRole('tab', { name: 'Import' });
      await expect(next).toBeFocused();
      await expect(next).toHaveCSS('outline-style', 'solid');
    });
  });
}
