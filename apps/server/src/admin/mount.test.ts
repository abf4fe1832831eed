import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app-harness.js';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';

describe('createApp mounts /api/admin behind the role check', () => {
  let testApp: TestApp | undefined;
  let app: TestApp['app'];
  const users: Record<string, AuthenticatedUser> = {
    admin: { id: '11111111-1111-4111-8111-111111111111', email: 'a@x.io', role: 'admin', appMetadata: {} },
    user: { id: '22222222-2222-4222-8222-222222222222', email: 'u@x.io', role: 'user', appMetadata: {} },
  };

  beforeAll(async () => {
    testApp = await startTestApp({ deps: { verifyAccessToken: async (token) => users[token] ?? null } });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const get = (p: string, token?: string) =>
    app.request(p, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

  it('answers 401, 403 and 200 by the caller, and a JSON 404 for unknown admin paths', async () => {
    expect((await get('/api/admin/stats')).status).toBe(401);
    expect((await get('/api/admin/stats', 'user')).status).toBe(403);
    const ok = await get('/api/admin/stats', 'admin');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ total: 0, verified: 0, pending: 0 });
    const missing = await get('/api/admin/nope', 'admin');
    expect(missing.status).toBe(404);
    expect((await get('/api/admin/nope')).status).toBe(401);
    // The app's own answers under /api/admin (its JSON 404) are not cached either.
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });
});

describe('/api/admin with hosted Supabase', () => {
  const admin: AuthenticatedUser = {
    id: '11111111-1111-4111-8111-111111111111',
    email: 'a@x.io',
    role: 'admin',
    appMetadata: {},
  };

  it('has no OAuth clients (they belong to the embedded auth): a JSON 404, never a 5xx', async () => {
    const testApp = await startTestApp({
      env: {
        SUPABASE_URL: 'https://project.supabase.co',
        SUPABASE_ANON_KEY: 'anon-key',
        SUPABASE_SERVICE_ROLE_KEY: 'service-role-key',
      },
      deps: { verifyAccessToken: async (token) => (token === 'admin' ? admin : null) },
    });
    try {
      for (const method of ['GET', 'POST']) {
        const res = await testApp.app.request('/api/admin/oauth-clients', {
          method,
          headers: { Authorization: 'Bearer admin', 'Content-Type': 'application/json' },
          ...(method === 'POST' ? { body: JSON.stringify({ client_name: 'x', redirect_uris: [] }) } : {}),
        });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/json/);
      }
    } finally {
      await testApp.close();
    }
  });
});
