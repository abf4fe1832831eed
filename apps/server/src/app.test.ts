import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrate, type Db } from '@engage/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app-harness.js';
import { createLogger } from './platform/logger.js';
import { allMigrations } from './startup.js';

const lines: string[] = [];
let testApp: TestApp;
let app: TestApp['app'];
let db: Db;

beforeAll(async () => {
  testApp = await startTestApp({
    migrated: false,
    prepare: (dir) => {
      mkdirSync(path.join(dir, 'assets'), { recursive: true });
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
      writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    },
    env: {
      VAPI_PRIVATE_KEY: 'sk-private-must-not-leak',
      VAPI_PUBLIC_KEY: 'pk-public',
      SUPABASE_URL: 'https://proj.supabase.co',
      SUPABASE_ANON_KEY: 'anon-public',
      SUPABASE_SERVICE_ROLE_KEY: 'service-role-must-not-leak',
    },
    deps: { logger: createLogger('debug', (l) => lines.push(l)) },
  });
  ({ app, db } = testApp);
});

afterAll(async () => {
  await testApp?.close();
});

describe('createApp', () => {
  it('answers /healthz with 200 while the database answers', async () => {
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('is ready (/readyz) only once the database holds every migration of this build', async () => {
    const before = await app.request('/readyz');
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ reason: 'migrations' });
    await migrate(db, allMigrations());
    const after = await app.request('/readyz');
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-store');
  });

  it('serves /config.json with public values and no secret', async () => {
    const res = await app.request('/config.json');
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ siteTitle: 'Engage', auth: { anonKey: 'anon-public' } });
    expect(text).not.toContain('must-not-leak');
  });

  it('serves index.html for page routes (SPA fallback) without caching it', async () => {
    for (const route of ['/', '/ediscovery', '/no/such/page']) {
      const res = await app.request(route, { headers: { Accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and 404s a missing one', async () => {
    const res = await app.request('/assets/index-abc123.js');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await app.request('/assets/gone-123.js')).status).toBe(404);
  });

  it('never serves files outside the site directory', async () => {
    const res = await app.request('/..%2f..%2fetc%2fpasswd');
    expect(await res.text()).not.toContain('root:');
  });

  it('sets a CSP without inline scripts, and the other security headers', async () => {
    const res = await app.request('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('https://proj.supabase.co');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('compresses responses when the client accepts it', async () => {
    const res = await app.request('/config.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await app.request('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: 'No route for GET /api/nope' });
  });

  it('logs one line per request with the path but not the query string', async () => {
    lines.length = 0;
    await app.request('/healthz?token=secret-in-query');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string);
    expect(entry).toMatchObject({ msg: 'request', method: 'GET', path: '/healthz', status: 200 });
    expect(lines[0]).not.toContain('secret-in-query');
  });
});
