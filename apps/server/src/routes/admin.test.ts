import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminError, type UserAdmin } from '../admin/types.js';
import { parseConfig } from '../config.js';
import { serverMigrations } from '../db/migrations/index.js';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';
import { createLogger } from '../lib/logger.js';
import type { AuthenticatedUser } from '../middleware/require-auth.js';
import { adminRoutes } from './admin.js';

const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '22222222-2222-4222-8222-222222222222';
const OTHER_ID = '33333333-3333-4333-8333-333333333333';
const tokens: Record<string, AuthenticatedUser> = {
  'admin-token': { id: ADMIN_ID, email: 'admin@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {} },
};
const verifyAccessToken = async (token: string) => tokens[token] ?? null;

for (const target of testDbTargets()) {
  describe(`/api/admin on ${target.name}`, () => {
    let db: Db;
    let app: ReturnType<typeof adminRoutes>;
    const logLines: string[] = [];

    const call = (
      method: string,
      path: string,
      options: { token?: string; body?: unknown; raw?: string } = {},
    ) =>
      app.request(path, {
        method,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined || options.raw !== undefined
            ? { 'Content-Type': 'application/json' }
            : {}),
        },
        body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      });
    const asAdmin = (method: string, path: string, body?: unknown) =>
      call(method, path, { token: 'admin-token', body });
    /** The routes as USER_ID sees them, an admin too: for two admins acting at once. */
    const routesOfSecondAdmin = () =>
      adminRoutes({
        config: parseConfig({}),
        db,
        logger: createLogger('silent'),
        verifyAccessToken: async () => ({
          ...tokens['admin-token']!,
          id: USER_ID,
          email: 'user@example.com',
        }),
      });

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      app = adminRoutes({
        config: parseConfig({}),
        db,
        logger: createLogger('debug', (line) => logLines.push(line)),
        verifyAccessToken,
      });
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('delete from auth_users; delete from admin_audit_log');
      await db.query(
        `insert into auth_users (id, email, created_at, email_confirmed_at, raw_app_meta_data) values
           ($1, 'admin@example.com', now() - interval '3 days', now() - interval '3 days', '{"role":"admin"}'),
           ($2, 'user@example.com', now() - interval '3 days', now() - interval '3 days', '{}')`,
        [ADMIN_ID, USER_ID],
      );
    });

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
      const { rows } = await db.query<{ email: string; role: string | null }>(
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

    const roleOf = async (id: string) =>
      (
        await db.query<{ meta: Record<string, unknown> }>(
          'select raw_app_meta_data as meta from auth_users where id = $1',
          [id],
        )
      ).rows[0]?.meta;

    it('PUT /users/:id/role sets app_metadata.role, keeps the other keys, answers the row and audits', async () => {
      await db.query(
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
        expect(await res.json(), JSON.stringify(body)).toEqual({
          error: 'validation_failed',
          message: expect.any(String),
        });
      }
      const notJson = await call('PUT', `/users/${USER_ID}/role`, { token: 'admin-token', raw: '{role:' });
      expect(notJson.status).toBe(400);
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
      await db.query(`update auth_users set raw_app_meta_data = '{}' where id = $1`, [ADMIN_ID]);
      await db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [USER_ID]);
      const last = await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'operator' });
      expect(last.status).toBe(409);
      expect(await last.json()).toEqual({
        error: 'last_admin',
        message: 'At least one administrator must remain.',
      });
      expect(await roleOf(USER_ID)).toEqual({ role: 'admin' });
      // With a second admin, the demotion goes through.
      await db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [
        ADMIN_ID,
      ]);
      expect((await asAdmin('PUT', `/users/${USER_ID}/role`, { role: 'operator' })).status).toBe(200);
    });

    it('never leaves no admin when two admins demote each other at once', async () => {
      await db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [USER_ID]);
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
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from auth_users where raw_app_meta_data->>'role' = 'admin'`,
      );
      expect(rows[0]?.n).toBe(1);
    });

    it('never leaves no admin when two admins delete each other at once; the last admin cannot be deleted', async () => {
      await db.query(`update auth_users set raw_app_meta_data = '{"role":"admin"}' where id = $1`, [USER_ID]);
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
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from auth_users where raw_app_meta_data->>'role' = 'admin'`,
      );
      expect(rows[0]?.n).toBe(1);
    });

    it('GET /users lists, searches, filters and pages', async () => {
      await db.query(
        `insert into auth_users (email, created_at) select 'bulk' || g || '@Example.org', now() - make_interval(secs => g)
           from generate_series(1, 30) g`,
      );
      const first = await asAdmin('GET', '/users?status=unverified&limit=20');
      expect(first.status).toBe(200);
      const page1 = await first.json();
      expect(page1.total).toBe(30);
      expect(page1.users).toHaveLength(20);
      expect(page1.users[0]).toEqual({
        id: expect.any(String),
        email: 'bulk1@Example.org',
        created_at: expect.stringMatching(/Z$/),
        email_confirmed_at: null,
        last_sign_in_at: null,
        is_admin: false,
        role: 'user',
        banned_until: null,
      });
      const page2 = await (
        await asAdmin('GET', `/users?status=unverified&limit=20&cursor=${page1.nextCursor}`)
      ).json();
      expect(page2.users).toHaveLength(10);
      expect(page2.nextCursor).toBeNull();
      const search = await (await asAdmin('GET', '/users?search=BULK2&status=all')).json();
      expect(search.users.map((u: { email: string }) => u.email)).toEqual([
        'bulk2@Example.org',
        'bulk20@Example.org',
        'bulk21@Example.org',
        'bulk22@Example.org',
        'bulk23@Example.org',
        'bulk24@Example.org',
        'bulk25@Example.org',
        'bulk26@Example.org',
        'bulk27@Example.org',
        'bulk28@Example.org',
        'bulk29@Example.org',
      ]);
      const verified = await (await asAdmin('GET', '/users?status=verified')).json();
      expect(verified.users.find((u: { email: string }) => u.email === 'admin@example.com').is_admin).toBe(
        true,
      );
    });

    it('GET /users answers 400 for bad parameters', async () => {
      for (const query of [
        'status=maybe',
        'limit=0',
        'limit=201',
        'limit=ten',
        'cursor=garbage',
        `search=${'a'.repeat(300)}`,
      ]) {
        const res = await asAdmin('GET', `/users?${query}`);
        expect(res.status, query).toBe(400);
        expect((await res.json()).message, query).toEqual(expect.any(String));
      }
    });

    it('GET /stats counts in SQL and gives sign-ups per day', async () => {
      await db.query(`insert into auth_users (email) values ('p1@x.io'), ('p2@x.io')`);
      const res = await asAdmin('GET', '/stats?days=3');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ total: 4, verified: 2, pending: 2 });
      expect(body.signupsPerDay).toHaveLength(3);
      expect(body.signupsPerDay[2].count).toBe(2);
      expect((await asAdmin('GET', '/stats?days=0')).status).toBe(400);
      expect((await asAdmin('GET', '/stats?days=400')).status).toBe(400);
    });

    it('POST /users creates a confirmed user and records it in the audit log', async () => {
      const res = await asAdmin('POST', '/users', {
        email: ' New.Person@Example.com ',
        password: 'secret-pass',
      });
      expect(res.status).toBe(201);
      const { user } = await res.json();
      expect(user.email).toBe('new.person@example.com');
      expect(user.email_confirmed_at).not.toBeNull();
      const audit = await (await asAdmin('GET', '/audit')).json();
      expect(audit.entries).toEqual([
        expect.objectContaining({
          actor_id: ADMIN_ID,
          actor_email: 'admin@example.com',
          action: 'user.create',
          target_id: user.id,
          target_email: 'new.person@example.com',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        }),
      ]);
      expect(logLines.join('\n')).not.toContain('secret-pass');
    });

    it('POST /users: 400 when email or password is missing, 422 for a taken email or a weak password', async () => {
      for (const body of [
        {},
        { email: 'a@x.io' },
        { password: 'secret-pass' },
        { email: '', password: '' },
        null,
        [1],
      ]) {
        const res = await asAdmin('POST', '/users', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await res.json()).toEqual({
          error: 'validation_failed',
          message: 'Please provide both email and password',
        });
      }
      const notJson = await call('POST', '/users', { token: 'admin-token', raw: '{oops' });
      expect(notJson.status).toBe(400);
      const badEmail = await asAdmin('POST', '/users', { email: 'not-an-email', password: 'secret-pass' });
      expect(badEmail.status).toBe(400);
      const taken = await asAdmin('POST', '/users', { email: 'USER@example.com', password: 'secret-pass' });
      expect(taken.status).toBe(422);
      expect(await taken.json()).toMatchObject({ error: 'email_exists' });
      const weak = await asAdmin('POST', '/users', { email: 'weak@x.io', password: '123' });
      expect(weak.status).toBe(422);
      expect(await weak.json()).toMatchObject({
        error: 'weak_password',
        message: expect.stringContaining('6'),
        reasons: ['length'],
      });
      // Issue 27: a common password is refused as GoTrue does, saying why.
      const common = await asAdmin('POST', '/users', { email: 'common@x.io', password: 'Password1' });
      expect(common.status).toBe(422);
      expect(await common.json()).toEqual({
        error: 'weak_password',
        message: 'Password is known to be weak and easy to guess, please choose a different one.',
        reasons: ['pwned'],
      });
      // A password of a bad format is a 400, as in the auth service.
      const nul = await asAdmin('POST', '/users', { email: 'nul@x.io', password: 'secret\0secret' });
      expect(nul.status).toBe(400);
    });

    it('DELETE /users/:id deletes, refuses self-deletion, 404s an unknown id and 400s a bad one', async () => {
      const self = await asAdmin('DELETE', `/users/${ADMIN_ID}`);
      expect(self.status).toBe(400);
      expect(await self.json()).toMatchObject({ error: 'cannot_delete_self' });
      const ok = await asAdmin('DELETE', `/users/${USER_ID}`);
      expect(ok.status).toBe(200);
      expect((await ok.json()).user.email).toBe('user@example.com');
      expect((await asAdmin('DELETE', `/users/${USER_ID}`)).status).toBe(404);
      expect((await asAdmin('DELETE', '/users/not-a-uuid')).status).toBe(400);
      const audit = await (await asAdmin('GET', '/audit')).json();
      expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(['user.delete']);
    });

    it('POST /users/verify confirms only unverified users among the ids and returns those ids', async () => {
      const { rows } = await db.query<{ id: string }>(
        `insert into auth_users (email) values ('p1@x.io'), ('p2@x.io'), ('p3@x.io') returning id`,
      );
      const [p1, p2] = rows.map((r) => r.id);
      const res = await asAdmin('POST', '/users/verify', { ids: [p1, p2, USER_ID] });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.verified.sort()).toEqual([p1, p2].sort());
      const stats = await (await asAdmin('GET', '/stats')).json();
      expect(stats).toMatchObject({ total: 5, verified: 4, pending: 1 });
      const audit = await (await asAdmin('GET', '/audit?limit=10')).json();
      expect(audit.entries).toHaveLength(2);
      for (const body of [{}, { ids: [] }, { ids: ['nope'] }, { ids: 'x' }])
        expect((await asAdmin('POST', '/users/verify', body)).status, JSON.stringify(body)).toBe(400);
    });

    it('GET /audit pages backwards and validates its parameters', async () => {
      for (let i = 0; i < 3; i++)
        await asAdmin('POST', '/users', { email: `a${i}@x.io`, password: 'secret-pass' });
      const first = await (await asAdmin('GET', '/audit?limit=2')).json();
      expect(first.entries.map((e: { target_email: string }) => e.target_email)).toEqual([
        'a2@x.io',
        'a1@x.io',
      ]);
      const next = await (await asAdmin('GET', `/audit?limit=2&before=${first.entries[1].id}`)).json();
      expect(next.entries.map((e: { target_email: string }) => e.target_email)).toEqual(['a0@x.io']);
      expect((await asAdmin('GET', '/audit?limit=-1')).status).toBe(400);
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
