import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import {
  requireAdmin,
  requireOperator,
  requireUser,
  roleOf,
  type AuthEnv,
  type AuthenticatedUser,
} from './require-auth.js';

const users: Record<string, AuthenticatedUser> = {
  'admin-token': { id: '1', email: 'a@x.io', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: '2', email: 'u@x.io', role: 'user', appMetadata: {} },
  'operator-token': { id: '3', email: 'o@x.io', role: 'operator', appMetadata: { role: 'operator' } },
  // Accounts with a verified factor, signed in with the password alone (aal1) or with it.
  'admin-aal1': {
    id: '4',
    email: 'm@x.io',
    role: 'admin',
    appMetadata: {},
    aal: 'aal1',
    hasVerifiedFactor: true,
  },
  'admin-aal2': {
    id: '4',
    email: 'm@x.io',
    role: 'admin',
    appMetadata: {},
    aal: 'aal2',
    hasVerifiedFactor: true,
  },
  'operator-aal1': {
    id: '5',
    email: 'p@x.io',
    role: 'operator',
    appMetadata: {},
    aal: 'aal1',
    hasVerifiedFactor: true,
  },
  'user-aal1': {
    id: '6',
    email: 'q@x.io',
    role: 'user',
    appMetadata: {},
    aal: 'aal1',
    hasVerifiedFactor: true,
  },
};
const verify = async (token: string) => users[token] ?? null;

const app = new Hono<AuthEnv>()
  .get('/user', requireUser(verify), (c) => c.json({ email: c.get('user').email }))
  .get('/admin', requireAdmin(verify), (c) => c.json({ ok: true }))
  .get('/operator', requireOperator(verify), (c) => c.json({ role: c.get('user').role }));

const get = (path: string, token?: string) =>
  app.request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

describe('requireUser / requireAdmin / requireOperator', () => {
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

  it('answers 403 to an operator on admin routes', async () => {
    expect((await get('/admin', 'operator-token')).status).toBe(403);
  });

  it('requireOperator: 401 without a token, 403 operator_required for a user, admins and operators pass', async () => {
    expect((await get('/operator')).status).toBe(401);
    const user = await get('/operator', 'user-token');
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({
      error: 'operator_required',
      message:
        "Only operators and administrators can use the server's provider key. Ask an administrator for access, or use your own private key.",
    });
    expect(await (await get('/operator', 'operator-token')).json()).toEqual({ role: 'operator' });
    expect(await (await get('/operator', 'admin-token')).json()).toEqual({ role: 'admin' });
  });

  it('throws HTTPException: the one onError answers with the JSON body, WWW-Authenticate and outer headers', async () => {
    const seen: unknown[] = [];
    const guarded = new Hono<AuthEnv>();
    guarded.use('*', async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    });
    guarded.use('*', requireAdmin(verify));
    guarded.get('/', (c) => c.json({ ok: true }));
    const root = new Hono().route('/admin', guarded);
    root.onError((error, c) => {
      seen.push(error);
      return error instanceof HTTPException ? error.getResponse() : c.text('unexpected', 500);
    });

    const anonymous = await root.request('/admin');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(anonymous.headers.get('Cache-Control')).toBe('no-store');
    expect(await anonymous.json()).toEqual({ error: 'unauthorized', message: 'Sign in to use this.' });

    const user = await root.request('/admin', { headers: { Authorization: 'Bearer user-token' } });
    expect(user.status).toBe(403);
    expect(user.headers.get('Cache-Control')).toBe('no-store');
    expect(await user.json()).toEqual({ error: 'forbidden', message: 'Only administrators can do this.' });
    expect(seen).toHaveLength(2);
    expect(seen.every((error) => error instanceof HTTPException)).toBe(true);
  });

  it('roleOf grants admin and operator only for those exact values', () => {
    expect(roleOf({ role: 'admin' })).toBe('admin');
    expect(roleOf({ role: 'operator' })).toBe('operator');
    for (const meta of [{}, null, undefined, { role: 'Admin' }, { role: ['admin'] }, { role: 'root' }])
      expect(roleOf(meta as Record<string, unknown> | null | undefined)).toBe('user');
  });

  it('answers 403 mfa_required to an aal1 token of a user with a verified factor, on every guard', async () => {
    for (const [path, token] of [
      ['/user', 'user-aal1'],
      ['/admin', 'admin-aal1'],
      ['/operator', 'operator-aal1'],
      ['/operator', 'admin-aal1'],
    ] as const) {
      const res = await get(path, token);
      expect(res.status, `${path} ${token}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'mfa_required' });
    }
    expect((await get('/admin', 'admin-aal2')).status).toBe(200);
    expect((await get('/operator', 'admin-aal2')).status).toBe(200);
    // The role is refused first: a code would not open an admin route to a plain user.
    expect(await (await get('/admin', 'user-aal1')).json()).toMatchObject({ error: 'forbidden' });
  });
});
