import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app-harness.js';
import { securityHeaders } from '../platform/http/security-headers.js';
import { createLogger } from '../platform/logger.js';
import type { PublicConfig } from './public-config.js';
import { serverPathsOf } from './server-paths.js';
import { staticSite } from './static-site.js';

// The site's marks (apps/site/src/app/entry-server.tsx): title \uE001, owner's domain \uE000\uE003
// (letter-spaced by the site: \uE000 \uE003).
const page = (body: string) =>
  `<!doctype html><html><head><title>\uE001</title><!--engage-config--></head><body>${body}</body></html>`;

// The not-found page is rendered at this mark, which the server replaces with the request's path.
const PATH_MARK = '/\uE002';

/** A built site as apps/site/scripts/prerender.mjs writes it, its route manifest included (or not). */
function site({ manifest = true } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-static-'));
  mkdirSync(path.join(dir, '_pages'));
  if (manifest)
    writeFileSync(
      path.join(dir, '_pages/routes.json'),
      JSON.stringify({
        routes: ['/', '/ediscovery', '/onboarding', '/profile'],
        pages: { '/': 'index', '/ediscovery': 'ediscovery', '/onboarding': 'onboarding' },
        notFound: { page: 'not-found', pathMark: PATH_MARK },
      }),
    );
  writeFileSync(
    path.join(dir, '_pages/not-found.html'),
    page(`<h1>Page not found</h1><p>There is no page at <code>${PATH_MARK}</code>.</p>`),
  );
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), page('<div id="root"></div>'));
  writeFileSync(
    path.join(dir, '_pages/index.html'),
    page('<a href="/">\uE001</a><h1 aria-label="\uE000\uE003">\uE000 \uE003</h1>'),
  );
  writeFileSync(path.join(dir, '_pages/ediscovery.html'), page('<h1>Protected Resource</h1>'));
  writeFileSync(
    path.join(dir, '_pages/onboarding.html'),
    page('<script>document.documentElement.dataset.hint = "1";</script><h1>Protected Resource</h1>'),
  );
  writeFileSync(path.join(dir, 'assets/app-abc.js'), `export const x = "${'a'.repeat(4000)}";`);
  return dir;
}

const config = (siteTitle: string, ownerDomain: string): PublicConfig => ({
  siteTitle,
  ownerDomain,
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
  assistants: { index: 'a', ediscovery: 'b', onboarding: 'c' },
});

describe('the static site', () => {
  it('fills the owner’s title and domain into the prerendered page, HTML-escaped, at serve time', async () => {
    const app = staticSite(site(), { publicConfig: config('Tom & <b>Jerry</b> "$&"', 'a<b>.example') });
    const html = await (await app.request('/')).text();
    expect(html).toContain('<title>Tom &amp; &lt;b&gt;Jerry&lt;/b&gt; &quot;$&amp;&quot;</title>');
    expect(html).toContain('<a href="/">Tom &amp; &lt;b&gt;Jerry&lt;/b&gt; &quot;$&amp;&quot;</a>');
    expect(html).toContain('<h1 aria-label="a&lt;b&gt;.example">a &lt; b &gt; . e x a m p l e</h1>');
    expect(html).not.toContain('<b>');
  });

  it('writes the public configuration as a JSON data block no value can close', async () => {
    const app = staticSite(site(), {
      publicConfig: config('</script><script>alert(1)</script>', 'x.example'),
    });
    const html = await (await app.request('/ediscovery/')).text();
    const block = /<script type="application\/json" id="engage-config">(.*?)<\/script>/.exec(html);
    expect(JSON.parse(block?.[1] ?? 'null')).toMatchObject({
      siteTitle: '</script><script>alert(1)</script>',
    });
    expect(html).toContain('<h1>Protected Resource</h1>');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('answers a malformed percent-encoding with 400 and the not-found page, not a 500', async () => {
    const app = staticSite(site(), { publicConfig: config('Site', 'x.example') });
    for (const target of ['/%E0%A4%A', '/assets/%ZZ.js', '/%']) {
      const res = await app.request(target);
      expect([target, res.status]).toEqual([target, 400]);
      expect(res.headers.get('Content-Type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('<h1>Page not found</h1>');
      expect(html).toContain(`<code>${target}</code>`);
      expect(html).toContain('<title>Site</title>');
    }
  });

  it('answers a path that is not one of the site’s routes 404 with the not-found page', async () => {
    const app = staticSite(site(), { publicConfig: config('Site', 'x.example') });
    for (const target of ['/no-such-page', '/admin/users', '/ediscovery/x', '/%3Cb%3Ehi%3C%2Fb%3E']) {
      const res = await app.request(target);
      expect([target, res.status]).toEqual([target, 404]);
      const html = await res.text();
      expect(html).toContain('<h1>Page not found</h1>');
      expect(html).toContain(`<code>${target}</code>`);
      expect(html).not.toContain('<b>');
    }
    // The site's routes, in any case and with a trailing slash, are pages; a missing asset stays text.
    expect(await (await app.request('/Ediscovery/')).text()).toContain('<h1>Protected Resource</h1>');
    const spa = await app.request('/profile');
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain('<div id="root"></div>');
    const asset = await app.request('/assets/gone-123.js');
    expect([asset.status, await asset.text()]).toEqual([404, 'Not found']);
  });

  it('serves every path the SPA when the build has no route manifest (an older build)', async () => {
    const app = staticSite(site({ manifest: false }), { publicConfig: config('Site', 'x.example') });
    const spa = await app.request('/no-such-page');
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain('<div id="root"></div>');
  });

  it('sends Brotli to clients that accept it, and caches hashed assets for a year', async () => {
    const app = staticSite(site(), { publicConfig: config('Site', 'x.example') });
    const res = await app.request('/assets/app-abc.js', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(res.headers.get('Cache-Control')).toContain('immutable');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeLessThan(200);
    expect(brotliDecompressSync(body).toString()).toContain('export const x');
    const plain = await app.request('/assets/app-abc.js', { headers: { 'Accept-Encoding': 'gzip, br;q=0' } });
    expect(plain.headers.get('Content-Encoding')).toBeNull();
  });

  it('allows by hash exactly the inline scripts of the page it serves, nothing a value could add', async () => {
    const app = new Hono();
    app.use('*', securityHeaders({ connect: [] }));
    app.route('/', staticSite(site(), { publicConfig: config('<script>alert(1)</script>', 'x.example') }));
    const res = await app.request('/onboarding');
    const html = await res.text();
    const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(
      res.headers.get('Content-Security-Policy') ?? '',
    )?.[1];
    const hash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
    const served = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(served).toEqual(['document.documentElement.dataset.hint = "1";']);
    expect(scriptSrc?.split(' ')).toContain(hash(served[0] ?? ''));
    // Another inline script, or one a configuration value carried, is refused.
    expect(scriptSrc).not.toContain(hash('alert(1)'));
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc?.match(/'sha256-/g)).toHaveLength(1);
    const other = await app.request('/ediscovery');
    expect(other.headers.get('Content-Security-Policy')).not.toContain("'sha256-");
  });
});

describe('the site’s build, read once and checked', () => {
  it('answers 503 naming the broken route manifest on every path that needs it, never a page or a 500', async () => {
    const dir = site();
    writeFileSync(path.join(dir, '_pages/routes.json'), '{"routes": "not a list"}');
    const app = staticSite(dir, { publicConfig: config('Site', 'x.example') });
    // A known page, an unknown one, and a malformed path (whose 400 page needs the manifest too).
    for (const target of ['/', '/no-such-page', '/%E0%A4%A']) {
      const res = await app.request(target);
      expect([target, res.status]).toEqual([target, 503]);
      expect(await res.text()).toMatch(/routes\.json is not a valid route manifest; rebuild the site/);
    }
    // Files need no manifest.
    expect((await app.request('/assets/app-abc.js')).status).toBe(200);
  });

  it('reads, fills and hashes the not-found page once per file version, not on every 404', async () => {
    const dir = site();
    const file = path.join(dir, '_pages/not-found.html');
    // Whole seconds: a file system keeps them exactly, so the version can be set back.
    const version = 1_800_000_000;
    utimesSync(file, version, version);
    const app = staticSite(dir, { publicConfig: config('Site', 'x.example') });
    expect(await (await app.request('/first')).text()).toContain('<h1>Page not found</h1>');
    // Other bytes under the same version: a cached page does not see them.
    writeFileSync(file, page(`<h1>Rebuilt</h1><code>${PATH_MARK}</code>`));
    utimesSync(file, version, version);
    const second = await (await app.request('/second')).text();
    expect(second).toContain('<h1>Page not found</h1>');
    expect(second).toContain('<code>/second</code>');
    // A new version (a rebuild under the running server) is read again.
    utimesSync(file, version, version + 5);
    expect(await (await app.request('/third')).text()).toContain('<h1>Rebuilt</h1>');
  });
});

describe('the server’s own paths, derived from its routes', () => {
  it('holds the first segment of every mounted route, whole segments only', () => {
    const app = new Hono();
    app.use('*', async (_c, next) => next());
    app.get('/healthz', (c) => c.text('ok'));
    app.route(
      '/auth/v1',
      new Hono().get('/user', (c) => c.text('me')),
    );
    app.all('/api/*', (c) => c.text('api'));
    app.get('/config.json', (c) => c.json({}));
    const isServerPath = serverPathsOf(app);
    for (const owned of ['/healthz', '/auth/v1/anything', '/api/x/y', '/config.json'])
      expect([owned, isServerPath(owned)]).toEqual([owned, true]);
    for (const site of ['/', '/apiary', '/healthz-page', '/authors', '/ediscovery'])
      expect([site, isServerPath(site)]).toEqual([site, false]);
  });
});

describe('the site behind the whole server, over HTTP', () => {
  let test: TestApp | undefined;
  let url: string;
  const lines: string[] = [];
  beforeAll(async () => {
    test = await startTestApp({
      env: { SITE_DIR: site() },
      deps: { logger: createLogger('debug', (line) => lines.push(line)) },
    });
    ({ url } = await test.listen());
  });
  afterAll(async () => {
    await test?.close();
  });

  it('answers the reported malformed URL 400 with the not-found page, logging no error', async () => {
    const res = await fetch(`${url}/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(await res.text()).toContain('<code>/%E0%A4%A</code>');
    expect(lines.filter((l) => /"level":"error"|URIError/.test(l))).toEqual([]);
  });

  it('answers an unknown page 404 with the not-found page, and an unknown API path 404 in JSON', async () => {
    const page = await fetch(`${url}/nothing-here`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('<h1>Page not found</h1>');
    const api = await fetch(`${url}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'request_error' });
    // A path that only starts like a mount point (/_mail) is the site's, not the server's.
    const lookalike = await fetch(`${url}/_mailbox`);
    expect(lookalike.status).toBe(404);
    expect(await lookalike.text()).toContain('<h1>Page not found</h1>');
    // Under a mount point that has no such route, the server's 404, not a page.
    const auth = await fetch(`${url}/healthz/no-such-route`);
    expect(auth.status).toBe(404);
    expect(await auth.text()).not.toContain('Page not found');
    const apiMalformed = await fetch(`${url}/api/%E0%A4%A`);
    expect(apiMalformed.status).toBe(404);
    expect(apiMalformed.headers.get('Content-Type')).toContain('application/json');
  });
});
