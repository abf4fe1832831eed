// An admin with an authenticator app who signed in with the password alone gets an aal1
// session. The server refuses it on the admin API (403 mfa_required), and the dashboard turns that
// answer into the code step, then works.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { totp } from './totp';

// Its own admin (see E2E_ADMINS in playwright.config.ts).
const ADMIN_EMAIL = 'mfa-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;

interface TokenResponse {
  access_token: string;
  user: Record<string, unknown>;
  [key: string]: unknown;
}

async function authApi(request: APIRequestContext) {
  const config = await (await request.get('/config.json')).json();
  const key = config.auth.anonKey as string;
  const headers = (token = key) => ({ apikey: key, Authorization: `Bearer ${token}` });
  const post = async (path: string, data: unknown, token?: string) => {
    const res = await request.post(`/auth/v1${path}`, { headers: headers(token), data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return res.json();
  };
  return {
    /** Where auth-js keeps the session in this site (lib/stored-session.ts). */
    storageKey: `sb-${new URL(config.auth.url ?? test.info().project.use.baseURL).hostname.split('.')[0]}-auth-token`,
    signIn: (): Promise<TokenResponse> =>
      post('/token?grant_type=password', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    post,
  };
}

test('an admin with an authenticator app signed in with the password only: the dashboard asks for the code, then works', async ({
  page,
  request,
}) => {
  const auth = await authApi(request);
  // The admin sets up an authenticator app (what the profile page does).
  const first = await auth.signIn();
  const factor = await auth.post(
    '/factors',
    { factor_type: 'totp', friendly_name: 'e2e app' },
    first.access_token,
  );
  const secret = factor.totp.secret as string;
  const challenge = await auth.post(`/factors/${factor.id}/challenge`, {}, first.access_token);
  await auth.post(
    `/factors/${factor.id}/verify`,
    { challenge_id: challenge.id, code: totp(secret) },
    first.access_token,
  );

  // The password alone: an aal1 session, which the admin API refuses whatever a client shows.
  const aal1 = await auth.signIn();
  const refused = await request.get('/api/admin/users', {
    headers: { Authorization: `Bearer ${aal1.access_token}` },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ error: 'mfa_required' });

  // This browser holds that session as one signed in before the app was set up: the site itself
  // sees no factor, so only the server's answer can ask for the code.
  const stored = { ...aal1, user: { ...aal1.user } };
  delete stored.user.factors;
  await page.goto('/');
  await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), {
    key: auth.storageKey,
    value: JSON.stringify(stored),
  });
  await page.goto('/admin');

  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toHaveCount(0);
  // The app's next code (the enrolment's own is accepted once only).
  await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();

  // The dashboard again, its data fetched with the aal2 session.
  await expect(page.getByRole('heading', { level: 1, name: 'User Management Dashboard' })).toBeVisible();
  await expect(page.getByLabel(/^Total Users: \d+$/)).toBeVisible();
  await page.getByRole('tab', { name: 'Users' }).click();
  // Found by a search: other specs' sign-ups, newest first, may push the admin off the first page.
  await page.getByRole('searchbox', { name: 'Search by email' }).fill(ADMIN_EMAIL);
  await expect(
    page
      .getByRole('region', { name: /^Users/ })
      .getByText(ADMIN_EMAIL)
      .first(),
  ).toBeVisible();
});
