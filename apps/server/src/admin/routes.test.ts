import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { adminTestContext, ADMIN_ID, OTHER_ID, USER_ID, verifyAccessToken } from './routes-harness.js';
import { adminRoutes } from './routes.js';
import { AdminError, type UserAdmin } from './types.js';

for (const target of testDbTargets()) {
  describe(`/api/admin on ${target.name}`, () => {
    const { t, call, asAdmin, routesOfSecondAdmin } = adminTestContext(target);

    const routes: [string, string, unknown?][] = [
      ['GET', '/users'],
      ['GET', '/stats'],
      ['GET', '/audit'],
      ['POST', '/users', { email: 'x@x.io', password: 'secret-pass' }],
      ['DELETE', `/users/${USER_ID}`],
      ['POST', '/users/verify', { ids: [USER_ID] }],
      ['PUT', `/users/${USER_ID}/role`, { role: 'admin' }],
    ];
    for (const [method, path, body] of routes) {
      it(`${method} ${path}: 401 without a valid token, 403 for a non-admin`, async () => {
        expect((await call(method, path, { body })).status).toBe(401);
        expect((await call(method, path, { body, token: 'forged' })).status).toBe(401);
        const forbidden = await call(method, path, { body, token: 'user-token' });
        expect(forbidden.status).toBe(403);
        expect(await forbidden.json()).toMatchObject({ error: 'forbidden' });
      });
    }
    it('changed nothing for the refused callers', async () => {
      for (const [method, path, body] of routes) await call(method, path, { body, token: 'user-token' });
      const { rows } = await t.db.query<{ email: string; role: string | null }>(
        `select email, raw_app_meta_data->>'role' as role from auth_users order by email`,
      );
      expect(rows).toEqual([
        { email: 'admin@example.com', role: 'admin' },
        { email: 'user@example.com', role: null },
      ]);
    });

    it('answers Cache-Control: no-store on every response, errors included', async () => {
      const answers = [
        await call('GET', '/users'),
        await call('GET', '/users', { token: 'user-token' }),
        await asAdmin('GET', '/users'),
        await asAdmin('GET', '/users?limit=0'),
        await asAdmin('GET', '/stats'),
        await asAdmin('GET', '/audit'),
        await asAdmin('DELETE', `/users/${OTHER_ID}`),
        await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'nope' }),
        await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'operator' }),
      ];
      expect(answers.map((r) => r.status)).toEqual([401, 403, 200, 400, 200, 200, 404, 400, 200]);
      for (const res of answers) expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('answers a bad query string as it answers a bad body: validation_failed, naming the field', async () => {
      for (const [path, field] of [
        ['/users?limit=0', 'limit'],
        ['/users?status=weird', 'status'],
        ['/stats?days=x', 'days'],
        ['/audit?limit=x', 'limit'],
        ['/users.csv?status=weird', 'status'],
        ['/outbox?limit=101', 'limit'],
      ]) {
        const res = await asAdmin('GET', path!);
        expect(res.status, path).toBe(400);
        expect(await res.json(), path).toMatchObject({ error: 'validation_failed', field });
      }
    });

    const roleOf = async (id: string) =>
      (
        await t.db.query<{ meta: Record<string, unknown> }>(
          'select raw_app_meta_data as meta from auth_users where id = $1',
          [id],
        )
      ).rows[0]?.meta;

    it('PUT /users/:id/role sets app_metadata.role, keeps the other keys, answers the row and audits', async () => {
      await t.db.query(
        `update auth_users set raw_app_meta_data = '{"provider":"email","plan":"gold"}' where id = $1`,
        [USER_ID],
      );
      const op = await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'operator' });
      expect(op.status).toBe(200);
      expect(await op.json()).toEqual({
        user: expect.objectContaining({
          id: USER_ID,
          email: 'user@example.com',
          role: 'operator',
          is_admin: false,
        }),
      });
      expect(await roleOf(USER_ID)).toEqual({ provider: 'email', plan: 'gold', role: 'operator' });

      const up = await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'admin' });
      expect((await up.json()).user).toMatchObject({ role: 'admin', is_admin: true });
      const listed = await (await asAdmin('GET', '/users?search=user@')).json();
      expect(listed.users[0]).toMatchObject({ email: 'user@example.com', role: 'admin', is_admin: true });

      const down = await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'user' });
      expect((await down.json()).user).toMatchObject({ role: 'user', is_admin: false });
      // 'user' is the absence of a role: the key goes, the others stay.
      expect(await roleOf(USER_ID)).toEqual({ provider: 'email', plan: 'gold' });

      const audit = await (await asAdmin('GET', '/audit')).json();
      expect(audit.entries).toEqual(
        ['user', 'admin', 'operator'].map((role) =>
          expect.objectContaining({
            actor_id: ADMIN_ID,
            action: 'user.role',
            target_id: USER_ID,
            target_email: 'user@example.com',
            detail: role,
          }),
        ),
      );
    });

    it('PUT /users/:id/role: 400 for a bad role or body, 404 for an unknown user, nothing changed', async () => {
      for (const body of [
        {},
        { role: 'root' },
        { role: 'Admin' },
        { role: '' },
        { role: null },
        { role: ['admin'] },
        'admin',
        null,
        [],
      ]) {
        const res = await asAdmin('PUT', `/users/${USER_ID}/role`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await res.json(), JSON.stringify(body)).toMatchObject({
          error: 'validation_failed',
          message: expect.any(String),
        });
      }
      const notJson = await call('PUT', `/users/${USER_ID}/role`, { token: 'admin-token', raw: '{role:' });
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ error: 'invalid_json' });
      expect((await asAdmin('PUT', '/users/not-a-uuid/role', { role: 'user' })).status).toBe(400);
      const missing = await asAdmin('PUT', `/users/${OTHER_ID}/role`, { role: 'operator' });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'user_not_found' });
      expect(await roleOf(USER_ID)).toEqual({});
      expect((await (await asAdmin('GET', '/audit')).json()).entries).toEqual([]);
    });

    it('PUT /users/:id/role refuses the caller’s own role, and removing the last admin', async () => {
      const self = await asAdmin('PUT', `/users/${ADMIN_ID}/role`, { role: 'user' });
      expect(self.status).toBe(400);
      expect(await self.json()).toEqual({
        error: 'self_role_change',
        message: 'You cannot change your own role.',
      });
      // Another admin whose role is stored (the caller's token says admin, the row may not).
      await t.db.query(`update auth_users set raw_app_meta_data = '{}' where id = $1`, [ADMIN_ID]);
      await t.db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [
        USER_ID,
      ]);
      const last = await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'operator' });
      expect(last.status).toBe(409);
      expect(await last.json()).toEqual({
        error: 'last_admin',
        message: 'At least one administrator must remain.',
      });
      expect(await roleOf(USER_ID)).toEqual({ role: 'admin' });
      // With a second admin, the demotion goes through.
      await t.db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [
        ADMIN_ID,
      ]);
      expect((await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'operator' })).status).toBe(200);
    });

    it('never leaves no admin when two admins demote each other at once', async () => {
      await t.db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [
        USER_ID,
      ]);
      const other = routesOfSecondAdmin();
      const [a, b] = await Promise.all([
        asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'user' }),
        other.request(`/users/${ADMIN_ID}/role`, {
          method: 'PUT',
          headers: { Authorization: 'Bearer x', 'Content-Type': 'application/json' },
          body: JSON.stringify({ role: 'user' }),
        }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const { rows } = await t.db.query<{ n: number }>(
        `select count(*)::int as n from auth_users where raw_app_meta_data->>'role' = 'admin'`,
      );
      expect(rows[0]?.n).toBe(1);
    });

    it('never leaves no admin when two admins delete each other at once; the last admin cannot be deleted', async () => {
      await t.db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [
        USER_ID,
      ]);
      const other = routesOfSecondAdmin();
      const [a, b] = await Promise.all([
        asAdmin('DELETE', `/users/${USER_ID}`),
        other.request(`/users/${ADMIN_ID}`, { method: 'DELETE', headers: { Authorization: 'Bearer x' } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const refused = a.status === 409 ? a : b;
      expect(await refused.json()).toEqual({
        error: 'last_admin',
        message: 'At least one administrator must remain.',
      });
      const { rows } = await t.db.query<{ n: number }>(
        `select count(*)::int as n from auth_users where raw_app_meta_data->>'role' = 'admin'`,
      );
      expect(rows[0]?.n).toBe(1);
    });
  });
}

describe('/api/admin with hosted Supabase but no service key', () => {
  it('answers 503 naming the missing variable, after the role check', async () => {
    const app = adminRoutes({
      config: parseConfig({ SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_ANON_KEY: 'anon' }),
      db: undefined as unknown as Db, // never reached: the 503 comes first
      logger: createLogger('silent'),
      verifyAccessToken,
    });
    expect((await app.request('/users')).status).toBe(401);
    const res = await app.request('/users', { headers: { Authorization: 'Bearer admin-token' } });
    expect(res.status).toBe(503);
    expect((await res.json()).message).toContain('SUPABASE_SERVICE_ROLE_KEY');
  });
});

describe('/api/admin when the user store fails', () => {
  it('answers the parent app’s 500 for an unexpected error, and a 502 for a refusal upstream', async () => {
    const failing = {
      kind: 'hosted' as const,
      listUsers: async () => {
        throw new Error('connection reset');
      },
      stats: async () => {
        throw new AdminError('upstream_error', 'Supabase refused to list users (401).');
      },
    } as unknown as UserAdmin; // only the two methods these requests reach
    const parent = new Hono();
    parent.onError((_error, c) => c.json({ error: 'internal_error' }, 500));
    parent.route(
      '/api/admin',
      adminRoutes({
        config: parseConfig({}),
        db: undefined as unknown as Db, // the audit log is not reached by reads
        logger: createLogger('silent'),
        verifyAccessToken,
        userAdmin: failing,
      }),
    );
    const headers = { Authorization: 'Bearer admin-token' };
    const crash = await parent.request('/api/admin/users', { headers });
    expect(crash.status).toBe(500);
    expect(await crash.json()).toEqual({ error: 'internal_error' });
    expect(crash.headers.get('cache-control')).toBe('no-store');
    const upstream = await parent.request('/api/admin/stats', { headers });
    expect(upstream.status).toBe(502);
    expect(upstream.headers.get('cache-control')).toBe('no-store');
    expect(await upstream.json()).toEqual({
      error: 'upstream_error',
      message: 'Supabase refused to list users (401).',
    });
  });
});
