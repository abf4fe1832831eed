import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';

// Its own admin (see E2E_ADMINS in playwright.config.ts): no other spec signs in or out with it.
const ADMIN_EMAIL = 'phone-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** The dashboard's card of the sign-ups chart. */
const chartCard = (page: Page) =>
  page.locator('section').filter({ has: page.getByRole('img', { name: /^Sign-ups per day/ }) });

/** The admin's session as auth-js stores it, so a page opens signed in (prerender.spec does the same). */
async function signedIn(page: Page): Promise<string> {
  const config = await (await page.request.get('/config.json')).json();
  const res = await page.request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: config.auth.anonKey },
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
  const session = await res.json();
  session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
  await page.addInitScript(
    ([key, value]) => window.localStorage.setItem(key as string, value as string),
    ['sb-127-auth-token', JSON.stringify(session)],
  );
  return session.access_token as string;
}

/** The page is no wider than the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, width } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scrollWidth, `${what} is ${scrollWidth}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

/** The element lies inside the window's width. */
async function expectInsideWidth(page: Page, element: Locator, what: string) {
  const width = page.viewportSize()?.width ?? 0;
  // Retried: a list that refetches (another spec's users coming and going) may re-render the row meanwhile.
  await expect(async () => {
    const box = await element.boundingBox({ timeout: 2_000 });
    expect(box, what).not.toBeNull();
    expect(box!.x, `${what} starts at ${box!.x}`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${what} ends at ${box!.x + box!.width}`).toBeLessThanOrEqual(width);
  }).toPass();
}

/** Nothing is drawn over the element: its centre and both ends are its own when hit-tested. */
async function expectUncovered(element: Locator, what: string) {
  // Retried: a list that refetches (the search settling) may replace the row meanwhile.
  await expect(async () => {
    await element.scrollIntoViewIfNeeded({ timeout: 2_000 });
    const covered = await element.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const y = r.top + r.height / 2;
      return [r.left + 2, r.left + r.width / 2, r.right - 2]
        .map((x) => document.elementFromPoint(x, y))
        .filter((hit) => !hit || !el.contains(hit))
        .map((hit) => hit?.outerHTML.slice(0, 80) ?? 'outside the window');
    });
    expect(covered, `${what} is covered`).toEqual([]);
  }).toPass();
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The landing page's title: read by its real word, shown letter-spaced. */
async function expectTitle(page: Page, word: string) {
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveAccessibleName(word);
  expect(await heading.innerText()).toBe([...word.replace(/\s+/g, '')].join(' '));
}

for (const width of [320, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test('every page fits the width of the phone', async ({ page }) => {
      const config = await (await page.request.get('/config.json')).json();
      await page.goto('/');
      await expectTitle(page, config.ownerDomain);
      await expectNoSidewaysScroll(page, '/');

      // A visitor finds Sign in and Sign up in the phone menu (issue 27); the page fits too.
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

      await signedIn(page);
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
      const token = await signedIn(page);
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
      await page.getByPlaceholder('Search by email...').fill(`phone-layout-`);
      const verifiedList = page.getByRole('region', { name: /^Verified Users/ });
      const unverifiedList = page.getByRole('region', { name: /^Unverified Users/ });
      const verifiedRow = verifiedList.getByRole('listitem').filter({ hasText: verified });
      await expect(verifiedRow).toBeVisible();
      await expect(unverifiedList.getByRole('listitem').filter({ hasText: pending })).toBeVisible();
      await expect(page.getByRole('img', { name: /^Sign-ups per day/ })).toBeVisible();

      await expectNoSidewaysScroll(page, '/admin');
      // The search box shows its whole placeholder ("Search by e" was all a phone showed).
      const search = page.getByPlaceholder('Search by email...');
      await search.fill('');
      const room = await search.evaluate((el) => {
        const input = el as HTMLInputElement;
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        context.font = style.font;
        const free = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { free, needed: context.measureText(input.placeholder).width };
      });
      expect(room.needed, 'the placeholder is cut').toBeLessThanOrEqual(room.free);
      await search.fill('phone-layout-');
      // The outbox's links get the card's width, not a sliver. Any mail's link: other specs' sign-ups mail
      // every admin, and may push the pending user's own mail past the outbox's newest 50.
      const link = page.getByRole('list', { name: 'Mails, newest first' }).locator('code').first();
      await expect(link).toBeVisible();
      const linkBox = await link.boundingBox();
      expect(linkBox!.width, 'the link column').toBeGreaterThan(width * 0.6);
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
      await signedIn(page);
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
      await signedIn(page);
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

/** How far the brightest pixel behind the title and subtitle stands above their typical one (0-255). */
async function artBehindText(page: Page): Promise<number> {
  const box = await page.evaluate(() => {
    const title = document.querySelector('h1') as HTMLElement;
    const subtitle = title.nextElementSibling as HTMLElement;
    // The text itself out of the picture: only what lies behind it is measured.
    for (const el of [title, subtitle]) {
      el.style.color = 'transparent';
      el.style.textShadow = 'none';
      el.style.filter = 'none';
    }
    const a = title.getBoundingClientRect();
    const b = subtitle.getBoundingClientRect();
    const x = Math.min(a.x, b.x);
    return { x, y: a.y, width: Math.max(a.right, b.right) - x, height: b.bottom - a.y };
  });
  const png = await page.screenshot({ clip: box });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(img, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const light: number[] = [];
    for (let i = 0; i < data.length; i += 4) {
      light.push(0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0));
    }
    light.sort((p, q) => p - q);
    return (light[light.length - 1] ?? 0) - (light[Math.floor(light.length / 2)] ?? 0);
  }, png.toString('base64'));
}

test.describe('background art', () => {
  for (const width of [1280, 375]) {
    test(`stays clear of the title and subtitle at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 760 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signedIn(page);
      for (const path of ['/ediscovery', '/onboarding']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // A page shown after the session check gets its stylesheet with its chunk: measure once the
        // scrim is styled (it was measured unstyled once, a bright line read as art behind the text).
        await expect
          .poll(() => page.getByTestId('landing-scrim').evaluate((el) => getComputedStyle(el).position))
          .toBe('absolute');
        // The art's lines are light on a dark picture: behind the text they are dimmed to a trace.
        expect(await artBehindText(page), `${path}: art behind the text`).toBeLessThan(24);
      }
    });
  }
});

test('the dashboard at desktop width keeps the stat cards their own height', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page);
  await page.goto('/admin');
  const chart = chartCard(page);
  await expect(chart).toBeVisible();
  const card = page.getByRole('group', { name: 'User statistics' }).locator('section').first();
  const cardBox = await card.boundingBox();
  const chartBox = await chart.boundingBox();
  expect(cardBox!.height).toBeLessThan(chartBox!.height * 0.75);
});
