import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../app-harness.js';

// EMBED_ORIGINS through the real app, route by route: every route the widget calls
// refuses look-alikes of a listed site, preflight included, and no other route grants a listed
// site CORS. embed.test.ts has the configuration and the listed site's own answers.

const SHOP = 'https://shop.example';
const HOST = 'localhost:8787';
const LOOK_ALIKES = [
  'https://shop.example.evil',
  'https://evil.shop.example',
  'null',
  'https://shop.example:8443',
  'http://shop.example',
  'https://shop.example/',
  'HTTPS://SHOP.EXAMPLE',
  'https://Shop.example',
  'https://shop.example.',
];
const WIDGET_ROUTES = [
  ['GET', '/config.json'],
  ['POST', '/provider/call/web'],
  ['POST', '/provider/chat/web'],
  ['POST', '/api/calls/websocket'],
] as const;

describe('EMBED_ORIGINS, route by route', () => {
  let testApp: TestApp | undefined;
  let app: TestApp['app'];

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { PORT: '8787', EMBED_ORIGINS: SHOP },
      prepare: (dir) => writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>'),
    });
    app = testApp.app;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const ask = (method: string, route: string, origin: string, headers: Record<string, string> = {}) =>
    app.request(route, {
      method,
      headers: { Host: HOST, Origin: origin, 'Content-Type': 'application/json', ...headers },
      ...(method === 'POST' && { body: JSON.stringify({ assistantId: 'asst_index' }) }),
    });
  const preflight = (route: string, origin: string, method: string) =>
    ask('OPTIONS', route, origin, {
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,content-type',
    });

  describe.each(WIDGET_ROUTES)('%s %s', (method, route) => {
    it.each(LOOK_ALIKES)('refuses %s with 403 origin_not_allowed, preflight included', async (origin) => {
      for (const res of [await ask(method, route, origin), await preflight(route, origin, method)]) {
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: string }).error).toBe('origin_not_allowed');
        expect(res.headers.get('access-control-allow-methods')).toBeNull();
      }
    });

    it('answers the listed site’s preflight with its origin', async () => {
      const res = await preflight(route, SHOP, method);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(res.headers.get('access-control-allow-methods')).toBe(method);
    });
  });

  it('refuses look-alikes on the call room’s WebSocket upgrade', async () => {
    for (const origin of LOOK_ALIKES) {
      const res = await app.request('/provider/rooms/00000000-0000-4000-8000-000000000000', {
        headers: { Host: HOST, Origin: origin, Upgrade: 'websocket', Connection: 'Upgrade' },
      });
      expect(res.status, origin).toBe(403);
    }
  });

  it.each([
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/embed'],
    ['GET', '/provider/assistant'],
    ['POST', '/provider/call'],
    ['GET', '/api/provider/assistant'],
    ['GET', '/api/conversations/unanswered'],
    ['GET', '/healthz'],
    ['GET', '/'],
  ])('gives the listed site no CORS on %s %s, nor on its preflight', async (method, route) => {
    const res = await ask(method, route, SHOP, { Authorization: 'Bearer x' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(route, SHOP, method);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
  });
});
