import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import siteConfig from '../site.config.json' with { type: 'json' };

const landingRoles = siteConfig.roles;

/** 'sales engineer' → 's a l e s e n g i n e e r', as the site spaces its titles. */
const spaceOut = (text: string) => [...text.replace(/\s+/g, '')].join(' ');

const SUBTITLE = /click the engage button on the left to start a conversation/i;

const pages = [
  {
    path: '/',
    title: async (page: Page) =>
      spaceOut((await (await page.request.get('/config.json')).json()).ownerDomain),
    roles: landingRoles.index,
    background: null,
    guarded: false,
  },
  {
    path: '/ediscovery',
    title: async () => 's a l e s e n g i n e e r',
    roles: landingRoles.ediscovery,
    background: '/se.svg',
    guarded: true,
  },
  {
    path: '/onboarding',
    title: async () => 'c a s e . o n b o a r d i n g',
    roles: landingRoles.onboarding,
    background: '/onboard.svg',
    guarded: true,
  },
] as const;

/** Signs in as the bootstrap admin through the auth card the route guard shows. */
async function signIn(page: Page) {
  await expect(page.getByText('This area requires authentication.')).toBeVisible();
  const form = page.getByRole('form', { name: 'Sign in' });
  // Its own admin (see E2E_ADMINS in playwright.config.ts): auth.spec logs admin@example.com out.
  await form.getByLabel('Email').fill('landing-admin@example.com');
  await form.getByLabel('Password', { exact: true }).fill(process.env.E2E_ADMIN_PASSWORD as string);
  await form.getByLabel('Password', { exact: true }).press('Enter');
}

/** Opens a landing page, signing in first when the page is guarded. */
async function open(page: Page, path: string, guarded: boolean) {
  await page.goto(path);
  if (guarded) await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

const backgroundOf = (page: Page) =>
  page.getByTestId('landing-background').evaluate((el) => getComputedStyle(el).backgroundImage);

test.describe('landing pages', () => {
  for (const p of pages) {
    test(`${p.path} shows its letter-spaced title, subtitle, roles, background and overlay`, async ({
      page,
    }) => {
      await open(page, p.path, p.guarded);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(await p.title(page));
      await expect(page.getByText(SUBTITLE)).toBeVisible();
      await expect(page.getByRole('list', { name: 'Roles' }).getByRole('listitem')).toHaveText([...p.roles]);

      const background = await backgroundOf(page);
      if (p.background) {
        expect(background).toContain(p.background);
        const art = await page.request.get(p.background);
        expect(art.status()).toBe(200);
        expect(art.headers()['content-type']).toContain('image/svg+xml');
        const svg = await art.text();
        expect(svg).toMatch(/^<svg[^>]+viewBox=/);
        expect(svg.length).toBeLessThan(10_000);
      } else {
        await expect(page.getByTestId('landing-background')).toHaveClass(/landing-bg-personal/);
        expect(background).toContain('gradient');
      }
      const overlay = await page
        .getByTestId('landing-overlay')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(overlay).toMatch(/rgba?\(|oklab|color\(/);
      expect(overlay).not.toBe('rgba(0, 0, 0, 0)');

      const widget = page.getByRole('button', { name: 'ENGAGE' });
      await expect(widget).toHaveText('ENGAGE');
      await expect(widget.locator('svg')).toHaveCount(1);
      const box = await widget.boundingBox();
      const viewport = page.viewportSize();
      expect(box && viewport && box.x < 40 && box.y + box.height > viewport.height - 60).toBe(true);
    });
  }

  test('the sales engineer and onboarding pages require sign-in', async ({ page }) => {
    for (const p of pages.filter((x) => x.guarded)) {
      await page.goto(p.path);
      await expect(page.getByText('This area requires authentication.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'ENGAGE' })).toHaveCount(0);
    }
  });

  test('roles fade in 0.1 s apart', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/');
    const roles = page.getByRole('list', { name: 'Roles' }).getByRole('listitem');
    await expect(roles).toHaveCount(8);
    const animations = await roles.evaluateAll((items) =>
      items.map((el) => [getComputedStyle(el).animationName, getComputedStyle(el).animationDelay]),
    );
    expect(animations).toEqual(
      ['0s', '0.1s', '0.2s', '0.3s', '0.4s', '0.5s', '0.6s', '0.7s'].map((d) => ['landing-role-in', d]),
    );
  });

  test('roles do not animate under prefers-reduced-motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const roles = page.getByRole('list', { name: 'Roles' }).getByRole('listitem');
    await expect(roles.first()).toBeVisible();
    const names = await roles.evaluateAll((items) => items.map((el) => getComputedStyle(el).animationName));
    expect(new Set(names)).toEqual(new Set(['none']));
    await expect(roles.last()).toHaveCSS('opacity', '1');
  });

  test("a landing page's initial JavaScript carries neither the voice SDK nor Daily; the first click loads them", async ({
    page,
  }) => {
    // Bodies of scripts that arrive as the test ends (the call's own chunks) resolve to ''.
    const scripts: { url: string; body: Promise<string> }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push({ url: response.url(), body: response.text().catch(() => '') });
    });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
    // The page's script loads after its first paint, which a busy machine may delay past network idle.
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await page.waitForLoadState('networkidle');
    const initial = await Promise.all(scripts.map((s) => s.body));
    expect(initial.length).toBeGreaterThan(0);
    for (const body of initial) {
      expect(body.length).toBeGreaterThan(0);
      expect(body).not.toContain('Vapi Speaker');
      expect(body).not.toContain('createCallObject');
    }
    const before = scripts.length;
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect
      .poll(async () =>
        (await Promise.all(scripts.slice(before).map((s) => s.body))).some((b) => b.includes('Vapi Speaker')),
      )
      .toBe(true);
  });

  test('the landing page still works when the toasts fail to load', async ({ page }) => {
    // Fail sonner's chunk (recognised by its toaster attribute), as a flaky network would; the
    // landing page mounts the toaster at the first input, so a key press asks for it.
    const failed: string[] = [];
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      const response = await route.fetch();
      if ((await response.text()).includes('data-sonner-toaster')) {
        failed.push('toasts');
        return route.abort();
      }
      return route.fulfill({ response });
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('Shift');
    await expect.poll(() => [...new Set(failed)]).toEqual(['toasts']);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'KB Import' }),
    ).toBeVisible();
  });

  test('the page and its widget fit a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    const widget = page.getByRole('button', { name: 'ENGAGE' });
    await expect(widget).toBeInViewport({ ratio: 1 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  for (const p of pages) {
    test(`axe-core finds no violation on ${p.path}`, async ({ page }) => {
      // Settled page: roles caught mid-fade would be judged on their half-transparent colours.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await open(page, p.path, p.guarded);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
});
