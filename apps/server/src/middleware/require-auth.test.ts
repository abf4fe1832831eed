import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { requireAdmin, requireUser, type AuthEnv, type AuthenticatedUser } from './require-auth.js';

const users: Record<string, AuthenticatedUser> = {
  'admin-token': { id: '1', email: 'a@x.io', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: '2', email: 'u@x.io', role: 'user', appMetadata: {} },
};
const verify = async (token: string) => users[token] ?? null;

const app = new Hono<AuthEnv>()
  .get('/user', requireUser(verify), (c) => c.json({ email: c.get('user').email }))
  .get('/admin', requireAdmin(verify), (c) => c.json({ ok: true }));

const get = (path: string, token?: string) =>
  app.request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

describe('requireUser / requireAdmin', () => {
  it('answers 401 without a token or with an unknown one', async () => {
    expect((await get('/user')).status).toBe(401);
    expect((await get('/user', 'forged')).status).toBe(401);
    expect((await get('/admin')).status).toBe(401);
  });

  it('lets a signed-in user through and exposes who it is', async () => {
    const res = await get('/user', 'user-token');
    expect(await res.json()).toEqual({ email: 'u@x.io' });
  });

  it('answers 403 to a signed-in non-admin and lets an admin through', async () => {
    expect((await get('/admin', 'user-token')).status).toBe(403);
    expect((await get('/admin', 'admin-token')).status).toBe(200);
  });
});
