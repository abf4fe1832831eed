import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../middleware/security-headers.js';
import type { PublicConfig } from './public-config.js';
import { staticSite } from './static-site.js';

// The site's marks (apps/site/src/app/entry-server.tsx): title \uE001, owner's domain \uE000\uE003
// (letter-spaced by the site: \uE000 \uE003).
const page = (body: string) =>
  `<!doctype html><html><head><title>\uE001</title><!--engage-config--></head><body>${body}</body></html>`;

function site() {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-static-'));
  mkdirSync(path.join(dir, '_pages'));
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

  it('answers a malformed percent-encoding with 400, not a 500', async () => {
    const app = staticSite(site(), { publicConfig: config('Site', 'x.example') });
    for (const target of ['/%E0%A4%A', '/assets/%ZZ.js', '/%'])
      expect([target, (await app.request(target)).status]).toEqual([target, 400]);
  });

  it('serves a route without a prerendered page the SPA, and a missing asset a 404', async () => {
    const app = staticSite(site(), { publicConfig: config('Site', 'x.example') });
    const spa = await app.request('/no-such-page');
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain('<div id="root"></div>');
    expect((await app.request('/assets/gone-123.js')).status).toBe(404);
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
