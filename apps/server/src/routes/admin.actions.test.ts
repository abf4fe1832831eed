// The account actions of /api/admin (issue 14): invite, recovery and sign-in links, sign-out
// everywhere, bans, the details panel and the CSV export, through the embedded auth service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserAdmin } from '../admin/types.js';
import { createAuthRuntime } from '../auth/embedded.js';
import { NO_LIMITS } from '../auth/rate-limit.js';
import type { AuthService } from '../auth/service.js';
import { parseConfig } from '../config.js';
import { serverMigrations } from '../db/migrations/index.js';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';
import { createLogger } from '../lib/logger.js';
import { openSecretStore } from '../lib/secrets.js';
import type { AuthenticatedUser } from '../middleware/require-auth.js';
import { adminRoutes } from './admin.js';

const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '22222222-2222-4222-8222-222222222222';
const UNKNOWN_ID = '33333333-3333-4333-8333-333333333333';
const PASSWORD = 'user-secret-pass';
const tokens: Record<string, AuthenticatedUser> = {
  'admin-token': { id: ADMIN_ID, email: 'admin@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: USER_ID, email: 'user@example.com', role: 'user', appMetadata: {} },
};
const ctx = { ip: '127.0.0.1' };

for (const target of testDbTargets()) {
  describe(`/api/admin account actions on ${target.name}`, () => {
    let db: Db;
    let dir: string;
    let service: AuthService;
    let app: ReturnType<typeof adminRoutes>;

    const call = (method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
      app.request(path, {
        method,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    const asAdmin = (method: string, path: string, body?: unknown) =>
      call(method, path, { token: 'admin-token', body });

    const audit = async () =>
      (
        await db.query<{
          action: string;
          actor_id: string;
          target_email: string | null;
          detail: string | null;
        }>('select action, actor_id, target_email, detail from admin_audit_log order by id')
      ).rows;
    const mailsTo = async (address: string) =>
      (
        await db.query<{ kind: string; text_body: string }>(
          'select kind, text_body from mail_outbox where to_address = $1 order by created_at',
          [address],
        )
      ).rows;
    const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? '';

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'engage-admin-actions-'));
      db = await target.open(serverMigrations());
      const config = parseConfig({ DATA_DIR: dir, SITE_DIR: dir, PUBLIC_URL: 'https://site.example' });
      const runtime = createAuthRuntime({
        config,
        db,
        secrets: openSecretStore(dir),
        rateLimits: NO_LIMITS,
        emailResendIntervalSeconds: 60,
      });
      service = runtime.service as AuthService;
      app = adminRoutes({
        config,
        db,
        logger: createLogger('silent'),
        verifyAccessToken: async (token) => tokens[token] ?? null,
        auth: service,
        exportPageSize: 2,
      });
    });
    afterAll(async () => {
      await db?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      await db.exec('delete from auth_users; delete from admin_audit_log; delete from mail_outbox');
      await service.admin.create({
        id: ADMIN_ID,
        email: 'admin@example.com',
        password: 'admin-secret-pass',
        email_confirm: true,
        app_metadata: { role: 'admin' },
      });
      await service.admin.create({
        id: USER_ID,
        email: 'user@example.com',
        password: PASSWORD,
        email_confirm: true,
      });
    });

    const routes: [string, string, unknown?][] = [
      ['POST', '/users/invite', { email: 'new@example.com' }],
      ['POST', `/users/${USER_ID}/recovery`],
      ['POST', `/users/${USER_ID}/magic-link`],
      ['POST', `/users/${USER_ID}/sign-out`],
      ['POST', `/users/${USER_ID}/ban`, { duration: '24h' }],
      ['GET', `/users/${USER_ID}`],
      ['GET', '/users.csv'],
    ];
    for (const [method, path, body] of routes) {
      it(`${method} ${path}: 401 without a valid token, 403 for a non-admin, no-store, nothing done`, async () => {
        expect((await call(method, path, { body })).status).toBe(401);
        expect((await call(method, path, { body, token: 'forged' })).status).toBe(401);
        const forbidden = await call(method, path, { body, token: 'user-token' });
        expect(forbidden.status).toBe(403);
        expect(forbidden.headers.get('cache-control')).toBe('no-store');
        expect(await audit()).toEqual([]);
        expect((await db.query('select 1 from mail_outbox')).rows).toEqual([]);
        const { rows } = await db.query<{ n: number }>(
          'select count(*)::int as n from auth_users where banned_until is not null',
        );
        expect(rows[0]?.n).toBe(0);
      });
    }

    it('POST /users/invite creates an unconfirmed user, mails a link to the accept-invite page, audits; 201', async () => {
      const res = await asAdmin('POST', '/users/invite', { email: ' New.Person@Example.com ' });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { user } = await res.json();
      expect(user).toMatchObject({ email: 'new.person@example.com', email_confirmed_at: null, role: 'user' });
      const mails = await mailsTo('new.person@example.com');
      expect(mails.map((m) => m.kind)).toEqual(['invite']);
      const link = new URL(linkIn(mails[0]!.text_body));
      expect(link.searchParams.get('type')).toBe('invite');
      expect(link.searchParams.get('redirect_to')).toBe('https://site.example/accept-invite');
      expect(await audit()).toEqual([
        { action: 'user.invite', actor_id: ADMIN_ID, target_email: 'new.person@example.com', detail: null },
      ]);
    });

    it('POST /users/invite: 422 email_exists for a confirmed address, 400 for a bad or missing email', async () => {
      const taken = await asAdmin('POST', '/users/invite', { email: 'USER@example.com' });
      expect(taken.status).toBe(422);
      expect(await taken.json()).toMatchObject({ error: 'email_exists' });
      for (const body of [{ email: 'not-an-address' }, {}, [], { email: 'a'.repeat(320) + '@x.io' }]) {
        const bad = await asAdmin('POST', '/users/invite', body);
        expect(bad.status).toBe(400);
        expect(await bad.json()).toMatchObject({ error: 'validation_failed', message: expect.any(String) });
      }
      expect(await audit()).toEqual([]);
    });

    for (const [route, kind, action] of [
      ['recovery', 'recovery', 'user.recovery'],
      ['magic-link', 'magic_link', 'user.magic_link'],
    ] as const) {
      it(`POST /users/:id/${route} mails the link (202) and audits; 404, 400 and 429 otherwise`, async () => {
        const res = await asAdmin('POST', `/users/${USER_ID}/${route}`);
        expect(res.status).toBe(202);
        expect((await res.json()).user).toMatchObject({ id: USER_ID, email: 'user@example.com' });
        const mails = await mailsTo('user@example.com');
        expect(mails.map((m) => m.kind)).toEqual([kind]);
        expect(linkIn(mails[0]!.text_body)).toMatch(/^https:\/\/site\.example\/auth\/v1\/verify\?/);
        expect(await audit()).toEqual([
          { action, actor_id: ADMIN_ID, target_email: 'user@example.com', detail: null },
        ]);

        // GoTrue's resend interval holds for an admin too: a clear 429, no second mail, no entry.
        const again = await asAdmin('POST', `/users/${USER_ID}/${route}`);
        expect(again.status).toBe(429);
        expect(await again.json()).toMatchObject({ error: 'rate_limited', message: expect.any(String) });
        expect(await mailsTo('user@example.com')).toHaveLength(1);

        expect((await asAdmin('POST', `/users/${UNKNOWN_ID}/${route}`)).status).toBe(404);
        const bad = await asAdmin('POST', `/users/not-a-uuid/${route}`);
        expect(bad.status).toBe(400);
        expect(await audit()).toHaveLength(1);
      });
    }

    it('POST /users/:id/sign-out ends every session and refresh token of that user only, and audits', async () => {
      const first = await service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx);
      const second = await service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx);
      const admins = await service.passwordGrant(
        { email: 'admin@example.com', password: 'admin-secret-pass' },
        ctx,
      );

      const res = await asAdmin('POST', `/users/${USER_ID}/sign-out`);
      expect(res.status).toBe(200);
      for (const session of [first, second])
        await expect(
          service.refreshGrant({ refresh_token: session.refresh_token }, ctx),
        ).rejects.toMatchObject({ status: 400 });
      // The admin's own session is untouched.
      await expect(service.refreshGrant({ refresh_token: admins.refresh_token }, ctx)).resolves.toMatchObject(
        {
          access_token: expect.any(String),
        },
      );
      expect(await audit()).toEqual([
        { action: 'user.sign_out', actor_id: ADMIN_ID, target_email: 'user@example.com', detail: null },
      ]);
      expect((await asAdmin('POST', `/users/${UNKNOWN_ID}/sign-out`)).status).toBe(404);
      expect((await asAdmin('POST', '/users/nope/sign-out')).status).toBe(400);
    });

    it('POST /users/:id/ban bans (sign-in answers user_banned, sessions end), none lifts it, audits the duration', async () => {
      const session = await service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx);
      const res = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration: '24h' });
      expect(res.status).toBe(200);
      const { user } = await res.json();
      const until = new Date(user.banned_until).getTime();
      expect(until).toBeGreaterThan(Date.now() + 23 * 3600_000);
      await expect(
        service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx),
      ).rejects.toMatchObject({ status: 400, code: 'user_banned' });
      await expect(service.refreshGrant({ refresh_token: session.refresh_token }, ctx)).rejects.toMatchObject(
        {
          status: 400,
        },
      );
      // The list shows the ban.
      const list = await (await asAdmin('GET', '/users?search=user@')).json();
      expect(list.users[0]).toMatchObject({ id: USER_ID, banned_until: user.banned_until });

      const lifted = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration: 'none' });
      expect(lifted.status).toBe(200);
      expect((await lifted.json()).user.banned_until).toBeNull();
      await expect(
        service.passwordGrant({ email: 'user@example.com', password: PASSWORD }, ctx),
      ).resolves.toMatchObject({ access_token: expect.any(String) });
      expect((await audit()).map((e) => [e.action, e.target_email, e.detail])).toEqual([
        ['user.ban', 'user@example.com', '24h'],
        ['user.ban', 'user@example.com', 'none'],
      ]);
    });

    it('POST /users/:id/ban: 400 for a bad duration or the caller themselves, 404 for an unknown user', async () => {
      for (const duration of ['tomorrow', '24', '-1h', '1d', '']) {
        const res = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration });
        expect(res.status, duration).toBe(400);
        expect(await res.json()).toMatchObject({ message: expect.any(String) });
      }
      expect((await asAdmin('POST', `/users/${USER_ID}/ban`, {})).status).toBe(400);
      expect((await asAdmin('POST', `/users/${USER_ID}/ban`, { duration: 'x'.repeat(33) })).status).toBe(400);
      // Past the documented limit (Go's longest duration): 400 saying so, not 500 "Invalid time value".
      for (const duration of ['99999999999h', '2562048h', '9'.repeat(30) + 'h']) {
        const res = await asAdmin('POST', `/users/${USER_ID}/ban`, { duration });
        expect(res.status, duration).toBe(400);
        expect(await res.json()).toMatchObject({
          error: 'invalid_duration',
          message: expect.stringMatching(/at most 2562047h/),
        });
      }
      const self = await asAdmin('POST', `/users/${ADMIN_ID}/ban`, { duration: '24h' });
      expect(self.status).toBe(400);
      expect(await self.json()).toMatchObject({ error: 'cannot_ban_self' });
      expect((await asAdmin('POST', `/users/${UNKNOWN_ID}/ban`, { duration: '1h' })).status).toBe(404);
      expect(await audit()).toEqual([]);
      const { rows } = await db.query('select 1 from auth_users where banned_until is not null');
      expect(rows).toEqual([]);
    });

    it('GET /users/:id answers the details panel: factors, metadata, ban; 404 and 400 otherwise', async () => {
      await db.query(`update auth_users set raw_user_meta_data = '{"name":"Ann"}' where id = $1`, [USER_ID]);
      await db.query(
        `insert into auth_factors (user_id, friendly_name, factor_type, status, secret)
         values ($1, 'Phone app', 'totp', 'verified', 'JBSWY3DPEHPK3PXP')`,
        [USER_ID],
      );
      const res = await asAdmin('GET', `/users/${USER_ID}`);
      expect(res.status).toBe(200);
      const { user } = await res.json();
      expect(user).toMatchObject({
        id: USER_ID,
        email: 'user@example.com',
        role: 'user',
        banned_until: null,
        user_metadata: { name: 'Ann' },
        app_metadata: { provider: 'email' },
        factors: [{ factor_type: 'totp', status: 'verified', friendly_name: 'Phone app' }],
      });
      expect(JSON.stringify(user)).not.toContain('JBSWY3DPEHPK3PXP');
      expect((await asAdmin('GET', `/users/${UNKNOWN_ID}`)).status).toBe(404);
      expect((await asAdmin('GET', '/users/nope')).status).toBe(400);
    });

    it('GET /users.csv streams the filtered list as RFC 4180 CSV, formula cells defused, and audits the export', async () => {
      await db.query(
        `insert into auth_users (email, created_at, email_confirmed_at, raw_app_meta_data) values
           ('=cmd|calc@evil.io', now() - interval '1 day', null, '{}'),
           ('+plus@x.io', now() - interval '2 days', now(), '{"role":"operator"}'),
           ('"quoted",comma@x.io', now() - interval '3 days', now(), '{}'),
           ('@at@x.io', now() - interval '4 days', null, '{}'),
           ('-minus@x.io', now() - interval '5 days', now(), '{}')`,
      );
      const res = await asAdmin('GET', '/users.csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('id,email,created_at,email_confirmed_at,last_sign_in_at,role,banned_until');
      expect(lines.at(-1)).toBe('');
      const emails = lines.slice(1, -1).map((l) => l.split(',')[1]);
      // Newest first across export pages of 2 (the seeded admin and user are newest).
      expect(lines).toHaveLength(1 + 7 + 1);
      expect(emails.slice(2)).toEqual([
        "'=cmd|calc@evil.io",
        "'+plus@x.io",
        '"""quoted""',
        "'@at@x.io",
        "'-minus@x.io",
      ]);
      expect(text).toContain('"""quoted"",comma@x.io"');
      expect(text).toMatch(/'\+plus@x\.io,\d{4}-[^,]+Z,\d{4}-[^,]+Z,,operator,\r\n/);

      const pending = await (await asAdmin('GET', '/users.csv?status=unverified&search=X.IO')).text();
      expect(
        pending
          .split('\r\n')
          .slice(1, -1)
          .map((l) => l.split(',')[1]),
      ).toEqual(["'@at@x.io"]);
      const none = await (await asAdmin('GET', '/users.csv?search=nobody')).text();
      expect(none).toBe('id,email,created_at,email_confirmed_at,last_sign_in_at,role,banned_until\r\n');
      expect((await audit()).map((e) => [e.action, e.target_email, e.detail])).toEqual([
        ['user.export', null, '{"search":"","status":"all"}'],
        ['user.export', null, '{"search":"X.IO","status":"unverified"}'],
        ['user.export', null, '{"search":"nobody","status":"all"}'],
      ]);
      expect((await asAdmin('GET', '/users.csv?status=weird')).status).toBe(400);
    });
  });
}

describe('GET /users.csv streams', () => {
  it('writes each page as it comes: 100 000 users are never read ahead of the client', async () => {
    const PAGE = 500;
    let pagesRead = 0;
    const userAdmin = {
      kind: 'embedded',
      async *exportUsers() {
        for (let p = 0; p < 200; p++) {
          pagesRead++;
          yield Array.from({ length: PAGE }, (_, i) => ({
            id: `00000000-0000-4000-8000-${String(p * PAGE + i).padStart(12, '0')}`,
            email: `u${p * PAGE + i}@x.io`,
            created_at: '2025-01-01T00:00:00.000Z',
            email_confirmed_at: null,
            last_sign_in_at: null,
            is_admin: false,
            role: 'user' as const,
            banned_until: null,
          }));
        }
      },
    } as unknown as UserAdmin; // only exportUsers is reached by this route
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-admin-csv-'));
    const db = await testDbTargets()[0]!.open(serverMigrations());
    try {
      const app = adminRoutes({
        config: parseConfig({ DATA_DIR: dir, SITE_DIR: dir }),
        db,
        logger: createLogger('silent'),
        verifyAccessToken: async (token) => tokens[token] ?? null,
        userAdmin,
      });
      const res = await app.request('/users.csv', { headers: { Authorization: 'Bearer admin-token' } });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await reader.read();
      // A stream buffers a little ahead, never the whole export.
      expect(pagesRead).toBeLessThan(10);
      let bytes = 0;
      let lines = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        bytes += chunk.value.byteLength;
        for (const b of chunk.value) if (b === 10) lines++;
      }
      expect(pagesRead).toBe(200);
      expect(bytes).toBeGreaterThan(0);
      expect(lines).toBeGreaterThan(99_000);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
