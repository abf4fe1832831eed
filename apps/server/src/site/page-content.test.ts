import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { pageContentRoute } from './page-content.js';
import type { PublicConfig } from './public-config.js';
import { staticSite } from './static-site.js';

// A build as apps/site/scripts/prerender.mjs writes it: the guarded page's shell among the pages, its
// content apart, with the owner's marks (domain \uE000\uE003) the server fills in.
function site() {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-content-'));
  mkdirSync(path.join(dir, '_pages/content'), { recursive: true });
  writeFileSync(
    path.join(dir, '_pages/routes.json'),
    JSON.stringify({
      routes: ['/', '/ediscovery', '/kb-import'],
      pages: { '/': 'index', '/ediscovery': 'ediscovery', '/kb-import': 'kb-import' },
      content: { '/ediscovery': 'ediscovery' },
    }),
  );
  writeFileSync(path.join(dir, 'index.html'), '<div id="root"></div>');
  writeFileSync(path.join(dir, '_pages/ediscovery.html'), '<h1>Protected Resource</h1>');
  writeFileSync(path.join(dir, '_pages/kb-import.html'), '<h1>Protected Resource</h1>');
  writeFileSync(path.join(dir, '_pages/content/ediscovery.html'), '<h1>sales engineer at \uE000\uE003</h1>');
  return dir;
}

const publicConfig: PublicConfig = {
  siteTitle: 'Site',
  ownerDomain: '<b>x.example',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
  assistants: { index: 'a', ediscovery: 'b', onboarding: 'c' },
};

const users: Record<string, AuthenticatedUser> = {
  member: { id: 'u1', email: 'm@example.com', role: 'user', appMetadata: {} },
  halfway: { id: 'u2', email: 'h@example.com', role: 'user', appMetadata: {}, hasVerifiedFactor: true },
};
const route = (dir = site()) =>
  pageContentRoute(dir, { verify: async (token) => users[token] ?? null, publicConfig });
const ask = (token: string | null, query = 'path=/ediscovery', dir?: string) =>
  route(dir).request(
    `/api/page-content?${query}`,
    token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  );

describe('GET /api/page-content', () => {
  it('sends a signed-in caller the guarded page’s content, filled, for nobody else to cache', async () => {
    const res = await ask('member');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ html: '<h1>sales engineer at &lt;b&gt;x.example</h1>' });
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    // Any case, a trailing slash: the route as the router matches it.
    expect((await ask('member', 'path=/EDiscovery/')).status).toBe(200);
  });

  it('refuses a caller without a valid session before it says anything about the path', async () => {
    for (const token of [null, 'forged']) {
      const res = await ask(token, 'path=/no-such-page');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('asks for the second factor first when the account has one and the session did not use it', async () => {
    const res = await ask('halfway');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'mfa_required' });
  });

  it('answers 404 for a page that is not a guarded static page, and 400 for a path that is no path', async () => {
    for (const path of ['/kb-import', '/', '/no-such-page']) {
      const res = await ask('member', `path=${path}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
    for (const query of ['', 'path=ediscovery', `path=/${'a'.repeat(300)}`, 'path=/../x%00']) {
      const res = await ask('member', query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(await res.json()).toMatchObject({ error: 'validation_failed', field: 'path' });
    }
  });

  it('is never served as a file: the build’s pages and manifest go out by route only', async () => {
    const app = staticSite(site(), { publicConfig });
    for (const file of [
      '/_pages/content/ediscovery.html',
      '/_pages/routes.json',
      '/_pages/ediscovery.html',
    ]) {
      const res = await app.request(file);
      expect([file, res.status]).toEqual([file, 404]);
      expect(await res.text()).not.toContain('sales engineer');
    }
  });
});
