import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app-harness.js';
import { ConfigError, parseConfig, type Config } from '../platform/config.js';
import { ownOrigins } from '../platform/embed-origins.js';
import { originVerdict } from '../platform/http/embed-cors.js';
import { publicKeyRestrictions } from '../provider/connection.js';

// The widget on other sites: EMBED_ORIGINS, the CORS answers on exactly the widget's
// routes, the 403 for every other site, and the embed script's headers, through the real app.

const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';
const HOST = 'localhost:8787';

describe('EMBED_ORIGINS', () => {
  const parse = (value?: string) => parseConfig(value === undefined ? {} : { EMBED_ORIGINS: value });

  it('defaults to none', () => {
    expect(parse().EMBED_ORIGINS).toEqual([]);
  });

  it('takes a comma list of origins, normalised as browsers send them, each once', () => {
    expect(
      parse(' https://Shop.Example , http://127.0.0.1:5173/, https://shop.example:443').EMBED_ORIGINS,
    ).toEqual(['https://shop.example', 'http://127.0.0.1:5173']);
  });

  it.each([
    'https://shop.example/path',
    '*',
    'https://*.shop.example',
    'javascript:alert(1)',
    'null',
    'ftp://files.example',
    'https://user:pw@shop.example',
    'https://shop.example?x=1',
  ])('refuses %s', (value) => {
    expect(() => parse(value)).toThrow(ConfigError);
  });

  it('refuses more than 50', () => {
    const many = Array.from({ length: 51 }, (_, i) => `https://s${i}.example`).join(',');
    expect(() => parse(many)).toThrow(/at most 50/);
  });
});

describe('originVerdict', () => {
  const allowed = new Set([SHOP]);
  it('lets Engage’s own pages through: no Origin, or one naming this host', () => {
    expect(originVerdict(undefined, HOST, allowed)).toBe('same');
    expect(originVerdict(`http://${HOST}`, HOST, allowed)).toBe('same');
  });
  it('allows a listed origin exactly, and refuses look-alikes', () => {
    expect(originVerdict(SHOP, HOST, allowed)).toBe('allowed');
    expect(originVerdict('https://shop.example.evil.example', HOST, allowed)).toBe('refused');
    expect(originVerdict('http://shop.example', HOST, allowed)).toBe('refused');
    expect(originVerdict('https://SHOP.example', HOST, allowed)).toBe('refused');
    expect(originVerdict('null', HOST, allowed)).toBe('refused');
    expect(originVerdict(EVIL, HOST, allowed)).toBe('refused');
    // Engage's own pages by PUBLIC_URL, whatever Host a proxy passes on; not a look-alike of it.
    const own = 'https://engage.example';
    expect(originVerdict(own, '127.0.0.1:8787', allowed, own)).toBe('same');
    expect(originVerdict('https://engage.example.evil.example', '127.0.0.1:8787', allowed, own)).toBe(
      'refused',
    );
    expect(originVerdict('http://engage.example', '127.0.0.1:8787', allowed, own)).toBe('refused');
  });
});

describe('the public key’s allowedOrigins', () => {
  it('are the embedding sites and Engage’s own origins once EMBED_ORIGINS is set, and unset without it', () => {
    const base = parseConfig({ PORT: '8787' });
    expect(publicKeyRestrictions(base).public.allowedOrigins).toBeUndefined();
    const config = parseConfig({ PORT: '8787', EMBED_ORIGINS: SHOP });
    expect(publicKeyRestrictions(config).public.allowedOrigins).toEqual([
      'http://localhost:8787',
      'http://127.0.0.1:8787',
      'http://[::1]:8787',
      SHOP,
    ]);
    expect(publicKeyRestrictions(config).members.allowedOrigins).toBeUndefined();
    expect(ownOrigins({ PUBLIC_URL: 'https://engage.example/', HOST: '0.0.0.0', PORT: 80 })).toEqual([
      'https://engage.example',
    ]);
    expect(ownOrigins({ HOST: '127.0.0.1', PORT: 0 })).toBeNull();
  });
});

describe('the widget’s routes from other sites', () => {
  let testApp: TestApp | undefined;
  let app: TestApp['app'];
  let config: Config;
  let publicKey: string;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { PORT: '8787', EMBED_ORIGINS: SHOP },
      prepare: (dir) => {
        mkdirSync(path.join(dir, 'embed'), { recursive: true });
        writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
        writeFileSync(path.join(dir, 'embed.js'), 'void 0');
        writeFileSync(path.join(dir, 'embed', 'embed-0123456789.js'), 'void 0');
      },
    });
    ({ app, config } = testApp);
    publicKey = ((await (await app.request('/config.json')).json()) as { provider: { publicKey: string } })
      .provider.publicKey;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const from = (origin: string | undefined, init: RequestInit = {}) => ({
    ...init,
    headers: { Host: HOST, ...(origin && { Origin: origin }), ...init.headers },
  });
  const webCall = (origin: string) =>
    app.request(
      '/provider/call/web',
      from(origin, {
        method: 'POST',
        headers: { Authorization: `Bearer ${publicKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ assistantId: config.ASSISTANT_ID_INDEX }),
      }),
    );

  it('/config.json: CORS for a listed site, nothing added for Engage’s own page', async () => {
    const listed = await app.request('/config.json', from(SHOP));
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(listed.headers.get('vary')).toMatch(/Origin/);
    const own = await app.request('/config.json', from(undefined));
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    // Kept by a shared cache, Engage's own answer (no grant) must not be handed to the listed site.
    expect(own.headers.get('vary')).toMatch(/Origin/);
    const sameHost = await app.request('/config.json', from(`http://${HOST}`));
    expect(sameHost.headers.get('vary')).toMatch(/Origin/);
  });

  it('/config.json: 403 origin_not_allowed for any other site, readable by it so the widget says why', async () => {
    const res = await app.request('/config.json', from(EVIL));
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBe(EVIL);
    expect(await res.json()).toEqual({
      error: 'origin_not_allowed',
      message: 'This site is not allowed to use this assistant.',
    });
  });

  it('answers a listed site’s preflight for POST /call/web, /chat/web, /api/calls/websocket and /api/answer-requests', async () => {
    for (const route of [
      '/provider/call/web',
      '/provider/chat/web',
      '/api/calls/websocket',
      '/api/answer-requests',
    ]) {
      const res = await app.request(
        route,
        from(SHOP, {
          method: 'OPTIONS',
          headers: {
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'authorization',
          },
        }),
      );
      expect(res.status, route).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    }
  });

  it('refuses a call from an unlisted site before the provider sees it, and starts one from a listed site', async () => {
    const refused = await webCall(EVIL);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe('origin_not_allowed');
    const listed = await webCall(SHOP);
    expect(listed.status).not.toBe(403);
    expect(listed.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('refuses an answer request from an unlisted site before reading it', async () => {
    const res = await app.request(
      '/api/answer-requests',
      from(EVIL, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ conversation: { kind: 'chat', id: 'c1' }, email: 'a@example.com' }),
      }),
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('origin_not_allowed');
  });

  it('gives no CORS on the other routes, even to a listed site', async () => {
    const res = await app.request('/api/admin/embed', from(SHOP));
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.status).toBe(401);
  });

  it('serves /embed.js readable from any site, cached minutes; its hashed copy immutable', async () => {
    const script = await app.request('/embed.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(script.headers.get('cache-control')).toBe('public, max-age=300');
    const hashed = await app.request('/embed/embed-0123456789.js');
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers.get('access-control-allow-origin')).toBe('*');
    // The site's own pages stay as they were.
    expect((await app.request('/')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
