import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('foundation: every route in Chromium', () => {
  test('the home page shows the owner title in the navigation and the links', async ({ page }) => {
    await page.goto('/');
    const config = await (await page.request.get('/config.json')).json();
    await expect(nav(page).getByRole('link', { name: config.siteTitle, exact: true })).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Sales Engineer' })).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Project Onboarding' })).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'KB Import' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  // Every page but the home page needs sign-in: an anonymous visitor gets the route guard.
  for (const route of ['/ediscovery', '/onboarding', '/kb-import', '/conversations', '/admin'] as const) {
    test(`${route} shows the Protected Resource screen under the navigation`, async ({ page }) => {
      await page.goto(route);
      await expect(nav(page).getByRole('link', { name: 'Sales Engineer' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Protected Resource');
      await expect(page.getByText('This area requires authentication.')).toBeVisible();
    });
  }

  test('an unknown route shows the not-found page with the navigation', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(nav(page)).toBeVisible();
  });

  test('a route whose module fails to load shows the routing error view', async ({ page }) => {
    // From a page of the app: the home page is static (islands), its links load the next page in full.
    await page.goto('/sign-in');
    await expect(nav(page)).toBeVisible();
    // The app loads after the first paint; before it has hydrated, the link would navigate natively.
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    // Break every lazily loaded module from now on, as a failed deployment or network would.
    await page.route(/\/assets\/(?!index-).*\.js$/, (route) => route.abort());
    await nav(page).getByRole('link', { name: 'Sign up' }).click();
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  });

  test('the health check answers 200 and /config.json carries no secret', async ({ request }) => {
    expect((await request.get('/healthz')).status()).toBe(200);
    const text = await (await request.get('/config.json')).text();
    // Every secret the server generated lives in its data directory; none may reach the browser.
    const secretsFile = path.join(process.env.E2E_DATA_DIR as string, 'secrets.json');
    const secrets: Record<string, string> = existsSync(secretsFile)
      ? JSON.parse(readFileSync(secretsFile, 'utf8'))
      : {};
    for (const [name, value] of Object.entries(secrets)) {
      if (!/public|anon/i.test(name)) expect(text, name).not.toContain(value);
    }
    expect(text).not.toContain(process.env.E2E_ADMIN_PASSWORD as string);
  });
});
