import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import siteConfig from '../site.config.json' with { type: 'json' };
import { logOut, signUpAndConfirm, uniqueEmail } from './account-helpers';

const landingRoles = siteConfig.roles;

/** 'sales engineer' → 's a l e s e n g i n e e r', as the site spaces its titles. */
const spaceOut = (text: string) => [...text.replace(/\s+/g, '')].join(' ');
const ROLES = landingRoles.index;
const SUBTITLE = 'Click the engage button on the left to start a conversation.';
const PROTECTED = [
  's a l e s e n g i n e e r',
  'client support',
  'c a s e . o n b o a r d i n g',
  'orientation specialist',
];

/** A session as auth-js stores it, for this spec's own admin (see E2E_ADMINS). */
async function storedSession(page: Page) {
  const config = await (await page.request.get('/config.json')).json();
  const res = await page.request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: config.auth.anonKey },
    data: { email: 'prerender-admin@example.com', password: process.env.E2E_ADMIN_PASSWORD },
  });
  expect(res.ok()).toBe(true);
  const session = await res.json();
  session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
  return { key: 'sb-127-auth-token', value: JSON.stringify(session), email: session.user.email as string };
}

/**
 * Watches the page from its first byte: every DOM mutation and every frame records the text the page
 * holds; every frame the text it shows (innerText leaves out what CSS hides) and whether an avatar is
 * shown.
 */
async function watch(page: Page) {
  await page.addInitScript(() => {
    const log = { held: [] as string[], shown: [] as string[], avatarFrames: [] as boolean[] };
    (window as unknown as { __watch: typeof log }).__watch = log;
    const avatarShown = () =>
      [...document.querySelectorAll('[aria-label^="Account menu"], .session-avatar-hint')].some((el) => {
        const style = getComputedStyle(el);
        const before = getComputedStyle(el, '::before').content;
        return (
          style.display !== 'none' &&
          (el.textContent?.trim() || (before && before !== 'none' && before !== '""'))
        );
      });
    // Mutations may come before the stylesheet has loaded (nothing is painted then), so what is shown
    // is sampled only in animation frames, i.e. before each paint.
    const held = () => log.held.push(document.documentElement.textContent ?? '');
    new MutationObserver(held).observe(document, { childList: true, subtree: true, characterData: true });
    const frame = () => {
      held();
      if (document.body) log.shown.push(document.body.innerText);
      if (document.querySelector('header')) log.avatarFrames.push(Boolean(avatarShown()));
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return () =>
    page.evaluate(
      () =>
        (window as unknown as { __watch: { held: string[]; shown: string[]; avatarFrames: boolean[] } })
          .__watch,
    );
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/ shows the owner’s title, the subtitle and all eight roles', async ({ page }) => {
    const domain = (await (await page.request.get('/config.json')).json()).ownerDomain;
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(spaceOut(domain));
    await expect(page.getByText(SUBTITLE)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Roles' }).getByRole('listitem')).toHaveText(ROLES);
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
  });

  // Prerendered from the site's page table: the pages say what they are before any script.
  for (const [path, heading] of [
    ['/sign-in', 'Sign in'],
    ['/sign-up', 'Create your account'],
  ] as const) {
    test(`${path} is prerendered: its heading, and no form that could be sent before its code runs`, async ({
      page,
    }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.locator('form, input')).toHaveCount(0);
    });
  }
});

test.describe('/ as islands', () => {
  test('before any input it fetches only its islands’ script, at most 35 kB gzip; the first input brings the widget', async ({
    page,
  }) => {
    // Until the first input: the call's own chunks arrive as the test ends.
    const stop = recordScripts(page);
    await page.goto('/');
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await page.waitForLoadState('networkidle');
    const before = await stop();
    expect(before.length).toBeGreaterThan(0);
    expect(
      before.map((s) => new URL(s.url).pathname).filter((p) => /\/(index|client|widget-island)-/.test(p)),
    ).toEqual([]);
    expect(before.reduce((sum, s) => sum + s.gzip, 0)).toBeLessThanOrEqual(35 * 1024);
    // The menu works without the app; the first press brings the widget, which then starts a call.
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('button', { name: /CONNECTING|END/ })).toBeVisible();
  });

  test('a signed-in admin gets the avatar’s menu and the Admin link, and a link loads its page', async ({
    page,
  }) => {
    const session = await storedSession(page);
    await page.addInitScript((s) => window.localStorage.setItem(s.key, s.value), session);
    await page.goto('/');
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible();
    await nav.getByRole('button', { name: `Account menu for ${session.email}` }).click();
    await page.getByRole('menuitem', { name: /Profile/ }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});

test('/ hydrates without a React hydration warning, and ENGAGE works', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(m.text());
  });
  page.on('pageerror', (e) => messages.push(e.message));
  await page.goto('/');
  const engage = page.getByRole('button', { name: 'ENGAGE' });
  await expect(engage).toBeVisible();
  await page.waitForLoadState('networkidle');
  await engage.click();
  // Hydrated: the click reached React, which leaves the idle state.
  await expect(page.getByRole('button', { name: /CONNECTING|END/ })).toBeVisible();
  expect(messages.filter((m) => /hydrat|did not match|#418|#423|#425/i.test(m))).toEqual([]);
});

test('the page’s own inline scripts run under the CSP, and no other inline script does', async ({ page }) => {
  const res = await page.goto('/');
  const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(res?.headers()['content-security-policy'] ?? '')?.[1];
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).toContain("'sha256-");
  // The session hint ran before the first paint, and the loader it sits beside brought the app.
  await expect(page.locator('html')).toHaveAttribute('data-session', 'none');
  await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeEnabled();
  const refused = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        document.addEventListener('securitypolicyviolation', () => resolve(true), { once: true });
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true;';
        // An allowed inline script runs as it is inserted; a refused one reports a violation.
        document.head.append(script);
        if ((window as unknown as { __injected?: boolean }).__injected) resolve(false);
      }),
  );
  expect(refused).toBe(true);
});

/** Every script a page fetches from now until `stop()`, with its gzip -9 size. */
function recordScripts(page: Page) {
  const scripts: Promise<{ url: string; gzip: number }>[] = [];
  let recording = true;
  page.on('response', (r) => {
    if (recording && r.request().resourceType() === 'script')
      scripts.push(
        r.body().then(
          (b) => ({ url: r.url(), gzip: gzipSync(b, { level: 9 }).length }),
          () => ({ url: r.url(), gzip: 0 }),
        ),
      );
  });
  return async () => {
    recording = false;
    return Promise.all(scripts);
  };
}

test.describe('guarded landing pages as islands', () => {
  for (const signedIn of [false, true])
    test(`/ediscovery fetches at most 35 kB gzip of script before the first input (${signedIn ? 'signed in' : 'signed out'})`, async ({
      page,
    }) => {
      if (signedIn) {
        const session = await storedSession(page);
        await page.addInitScript((s) => window.localStorage.setItem(s.key, s.value), session);
      }
      const stop = recordScripts(page);
      await page.goto('/ediscovery');
      await expect(page.locator('#root[data-hydrated]')).toBeAttached();
      await expect(
        signedIn
          ? page.getByRole('heading', { level: 1, name: 'sales engineer' })
          : page.getByRole('heading', { name: 'Welcome' }),
      ).toBeVisible();
      await page.waitForLoadState('networkidle');
      const before = await stop();
      // Not the app (React, the router): the islands, and for a signed-in user the page from the server.
      expect(before.map((s) => new URL(s.url).pathname).filter((p) => /\/(index|react)-/.test(p))).toEqual(
        [],
      );
      expect(before.reduce((sum, s) => sum + s.gzip, 0)).toBeLessThanOrEqual(35 * 1024);
      if (signedIn) {
        await page.getByRole('button', { name: 'ENGAGE' }).click();
        await expect(page.getByRole('button', { name: /CONNECTING|END/ })).toBeVisible();
      }
    });

  test('a visitor who types and presses Enter before the card’s code has come is signed in, once, with nothing sent natively', async ({
    page,
  }) => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    // The app (which brings the card's code) is held back until the visitor has typed and pressed Enter.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/onboarding');
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill('prerender-admin@example.com');
    await form.getByLabel('Password', { exact: true }).fill(process.env.E2E_ADMIN_PASSWORD as string);
    await form.getByLabel('Password', { exact: true }).press('Enter');
    expect(page.url()).not.toContain('?');
    release();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('c a s e . o n b o a r d i n g');
    expect(requests.filter((r) => r.includes('grant_type=password'))).toHaveLength(1);
    // No request ever carried the password: neither a native GET nor a POST to the page.
    expect(
      requests.filter((r) => r.includes('password=') || (r.startsWith('POST') && r.endsWith('/onboarding'))),
    ).toEqual([]);
  });

  test('signing out on the page takes its content away again', async ({ page }) => {
    // An account of its own: logging out ends every session of the account.
    const email = uniqueEmail('islands-logout');
    await signUpAndConfirm(page, email, 'e2e password 1');
    await page.goto('/ediscovery');
    await expect(page.locator('#root[data-guarded-content]')).toBeAttached();
    await expect(page.getByRole('heading', { level: 1, name: 'sales engineer' })).toBeVisible();
    await logOut(page, email);
    await expect(page.getByRole('heading', { name: 'Protected Resource' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'sales engineer' })).toHaveCount(0);
  });
});

for (const path of ['/ediscovery', '/onboarding']) {
  test(`${path} never holds protected content for a signed-out visitor`, async ({ page }) => {
    const html = await (await page.request.get(path)).text();
    for (const text of PROTECTED) expect(html).not.toContain(text);
    const log = await watch(page);
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const { held } = await log();
    expect(held.length).toBeGreaterThan(0);
    for (const text of PROTECTED) expect(held.some((t) => t.includes(text))).toBe(false);
  });

  test(`${path} shows a signed-in user the page with no auth card flash, and the avatar on first paint`, async ({
    page,
  }) => {
    const session = await storedSession(page);
    await page.addInitScript((s) => window.localStorage.setItem(s.key, s.value), session);
    const log = await watch(page);
    await page.goto(path);
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Account menu for ${session.email}` })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const { shown, avatarFrames } = await log();
    expect(shown.some((t) => /This area requires authentication|Sign in to your account/.test(t))).toBe(
      false,
    );
    // The first frame with the navigation already shows the avatar (from the session hint).
    expect(avatarFrames[0]).toBe(true);
  });
}
