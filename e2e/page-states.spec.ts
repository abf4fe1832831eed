import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// The states between the pages: a session whose account was deleted, the configuration
// loading or failing, a page whose code failed to download, each route's document title, and a mail
// link's error fragment. Its own admin (E2E_ADMINS in playwright.config.ts) makes the users it deletes.
const ADMIN_EMAIL = 'states-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const ENDED = 'Your session has ended. Please sign in again.';
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function publicConfig(request: APIRequestContext) {
  return (await (await request.get('/config.json')).json()) as {
    siteTitle: string;
    auth: { anonKey: string };
  };
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const { auth } = await publicConfig(request);
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: auth.anonKey, Authorization: `Bearer ${auth.anonKey}` },
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).access_token as string;
}

/** A confirmed account made through the admin API; returns its id. */
async function createUser(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: { email, password },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { user: { id: string } }).user.id;
}

async function signIn(page: Page, path: string, email: string, password: string) {
  await page.goto(path);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
}

test.describe('page states in Chromium', () => {
  test('a deleted account signs out with a message instead of keeping the avatar', async ({
    page,
    request,
  }) => {
    const email = `e2e-deleted-${run}@example.com`;
    const password = `pw-${run}-Secret1`;
    const id = await createUser(request, email, password);
    await signIn(page, '/kb-import', email, password);

    const removed = await request.delete(`/api/admin/users/${id}`, {
      headers: { Authorization: `Bearer ${await adminToken(request)}` },
    });
    expect(removed.ok(), await removed.text()).toBe(true);

    // The stored session still looks valid, so the page first shows the avatar; the auth service's
    // answer then ends it.
    await page.reload();
    await page.keyboard.press('Shift'); // a first input loads the auth client, as on any page
    await expect(page.getByRole('alert').filter({ hasText: ENDED })).toBeVisible();
    await expect(nav(page).getByRole('button', { name: /Account menu/ })).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByText(/Invalid API key/)).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('sb-127-auth-token'))).toBeNull();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // It stays until dismissed.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByText(ENDED)).toHaveCount(0);
  });

  test('an unreachable auth service does not sign the user out', async ({ page, request }) => {
    const email = `e2e-offline-${run}@example.com`;
    const password = `pw-${run}-Secret2`;
    await createUser(request, email, password);
    await signIn(page, '/profile', email, password);

    await page.route('**/auth/v1/**', (route) => route.abort('internetdisconnected'));
    const failed = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/auth/v1/user'));
    await page.reload();
    await page.keyboard.press('Shift');
    await failed;
    await expect(nav(page).getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
    await expect(page.getByText(ENDED)).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('sb-127-auth-token'))).not.toBeNull();
  });

  test('while /config.json loads a busy status shows; when it fails, a readable error page that tries again', async ({
    page,
  }) => {
    // The server writes the configuration into every page; without it (as under `npm run dev`) the
    // site fetches /config.json.
    await page.route('**/profile', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(
        /<script type="application\/json" id="engage-config">[\s\S]*?<\/script>/,
        '',
      );
      await route.fulfill({ response, body });
    });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/config.json', async (route) => {
      await answered;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
    });

    await page.goto('/profile');
    const status = page.getByRole('status').filter({ hasText: 'Loading the site…' });
    await expect(status).toBeVisible();
    await expect(page.getByRole('main')).toHaveAttribute('aria-busy', 'true');

    answer();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'The site cannot reach its server' })).toBeVisible();
    await expect(alert).toContainText('The server answered 500 for /config.json.');
    await expect(alert.getByRole('button', { name: 'Reload the page' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    await page.unroute('**/config.json');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Protected Resource' })).toBeVisible();
  });

  test('a page whose code failed to download keeps the heading and asks for a reload', async ({ page }) => {
    // From a page of the app (client-side routing): the home page's links load their page in full.
    await page.goto('/sign-in');
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await page.route(/\/assets\/(?!index-).*\.js$/, (route) => route.abort());
    await nav(page).getByRole('link', { name: 'Sign up' }).click();
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await expect(page.getByText(/Reload the page to get the latest version/)).toBeVisible();
    await expect(page.getByText(/dynamically imported module|\/assets\//)).toHaveCount(0);

    await page.unroute(/\/assets\/(?!index-).*\.js$/);
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-up$/);
  });

  test('each route has its own document title, in the served HTML and after navigating', async ({
    page,
    request,
  }) => {
    const { siteTitle } = await publicConfig(request);
    const escaped = siteTitle.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(await (await request.get('/admin')).text()).toContain(`<title>Admin · ${escaped}</title>`);
    expect(await (await request.get('/')).text()).toContain(`<title>${escaped}</title>`);

    await page.goto('/');
    await expect(page).toHaveTitle(siteTitle);
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await nav(page).getByRole('link', { name: 'Sales Engineer' }).click();
    await expect(page).toHaveTitle(`Sales Engineer · ${siteTitle}`);
    await page.goto('/profile');
    await expect(page).toHaveTitle(`Profile · ${siteTitle}`);
    await page.goto('/no/such/page');
    await expect(page).toHaveTitle(`Page not found · ${siteTitle}`);
  });

  test("a mail link's #error fragment is shown, then cleared from the address bar", async ({ page }) => {
    await page.goto(
      '/profile#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );
    const message = page.getByRole('alert').filter({ hasText: 'Email link is invalid or has expired' });
    await expect(message).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(message).toBeVisible();
    // A reload no longer brings the old error back.
    await page.reload();
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByText('Email link is invalid or has expired')).toHaveCount(0);
  });
});
