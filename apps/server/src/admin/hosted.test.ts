import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@engage/db';
import { openPglite } from '@engage/db';
import type { Db } from '@engage/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { startServer, type RunningServer } from '../server.js';
import { createHostedUserAdmin, HOSTED_SIGN_OUT_MESSAGE } from './hosted.js';
import { adminRoutes } from './routes.js';
import type { UserAdmin } from './types.js';

// "Hosted Supabase" here is this project's own embedded auth on a real port: it speaks GoTrue's
// admin API, so the official @supabase/auth-js client runs against it
// exactly as it would against a hosted project.
const caller: AuthenticatedUser = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'boss@x.io',
  role: 'admin',
  appMetadata: { role: 'admin' },
};
const SERVICE_KEY = 'service-role-key-for-the-hosted-test-0123456789';

describe('hosted user admin (GoTrue admin API through @supabase/auth-js)', () => {
  let server: RunningServer;
  let dir: string;
  let admin: UserAdmin;
  let auditDb: Db;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'engage-hosted-admin-'));
    server = await startServer(
      parseConfig({
        PORT: '0',
        DATA_DIR: dir,
        AUTH_SERVICE_ROLE_KEY: SERVICE_KEY,
        ADMIN_PASSWORD: 'bootstrap-pass',
      }),
      createLogger('silent'),
    );
    // A page size of 2 makes every listing walk several listUsers pages.
    admin = createHostedUserAdmin({ url: server.url, serviceRoleKey: SERVICE_KEY, pageSize: 2 });
    auditDb = await openPglite();
    await migrate(auditDb, serverMigrations());
    // A whole server (persisted PGlite, every migration) starts in seconds, minutes on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await auditDb?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await server.db.exec("delete from auth_users where email <> 'admin@example.com'");
  });

  /** /api/admin over the hosted service, for the admin whose token is 'ok'. */
  const hostedRoutes = (logger: Logger, serviceKey = SERVICE_KEY) =>
    adminRoutes({
      config: parseConfig({
        SUPABASE_URL: server.url,
        SUPABASE_ANON_KEY: 'anon',
        SUPABASE_SERVICE_ROLE_KEY: serviceKey,
      }),
      db: auditDb,
      logger,
      verifyAccessToken: async (t) => (t === 'ok' ? caller : null),
    });

  it('creates confirmed users, refuses a taken address, and lists, searches, filters and pages', async () => {
    const created = await admin.createUser({ email: 'hosted.one@x.io', password: 'secret-pass' });
    expect(created.email_confirmed_at).not.toBeNull();
    await admin.createUser({ email: 'hosted.two@x.io', password: 'secret-pass' });
    await server.db.query(
      `insert into auth_users (email) values ('pending.hosted@x.io'), ('pending.b@x.io')`,
    );
    await expect(
      admin.createUser({ email: 'HOSTED.one@x.io', password: 'secret-pass' }),
    ).rejects.toMatchObject({
      code: 'email_exists',
      status: 422,
    });

    const search = await admin.listUsers({ search: 'HOSTED', status: 'all', limit: 10 });
    expect(search.users.map((u) => u.email).sort()).toEqual([
      'hosted.one@x.io',
      'hosted.two@x.io',
      'pending.hosted@x.io',
    ]);
    expect(search.total).toBe(3);
    const pending = await admin.listUsers({ status: 'unverified', limit: 10 });
    expect(pending.users.map((u) => u.email).sort()).toEqual(['pending.b@x.io', 'pending.hosted@x.io']);

    const seen: string[] = [];
    let after;
    do {
      const page = await admin.listUsers({ status: 'all', limit: 2, after });
      expect(page.total).toBe(5);
      seen.push(...page.users.map((u) => u.email));
      after = page.next ?? undefined;
    } while (after);
    expect(seen.sort()).toEqual([
      'admin@example.com',
      'hosted.one@x.io',
      'hosted.two@x.io',
      'pending.b@x.io',
      'pending.hosted@x.io',
    ]);
    expect(await admin.stats()).toEqual({ total: 5, verified: 3, pending: 2 });
    const days = await admin.signupsPerDay(3);
    expect(days.map((d) => d.count)).toEqual([0, 0, 5]);
    expect(
      (await admin.listUsers({ status: 'verified', limit: 10 })).users.find((u) => u.is_admin)?.email,
    ).toBe('admin@example.com');
  });

  it('verifies only unverified users and deletes, with not-found for unknown ids', async () => {
    const { rows } = await server.db.query<{ id: string }>(
      `insert into auth_users (email) values ('p1@x.io'), ('p2@x.io') returning id`,
    );
    const [p1, p2] = rows.map((r) => r.id) as [string, string];
    const confirmed = await admin.createUser({ email: 'done@x.io', password: 'secret-pass' });
    const changed = await admin.verifyUsers([p1, confirmed.id, '00000000-0000-4000-8000-000000000000']);
    expect(changed.map((u) => u.email)).toEqual(['p1@x.io']);
    expect((await admin.getUser(p2))?.email_confirmed_at).toBeNull();
    expect((await admin.deleteUser(p2)).email).toBe('p2@x.io');
    expect(await admin.getUser(p2)).toBeNull();
    await expect(admin.deleteUser(p2)).rejects.toMatchObject({ code: 'user_not_found', status: 404 });
  });

  it('sets roles through updateUserById, keeping other app_metadata keys, and keeps the last admin', async () => {
    const op = await admin.createUser({ email: 'op.hosted@x.io', password: 'secret-pass' });
    expect(op.role).toBe('user');
    expect(await admin.setRole(op.id, 'operator')).toMatchObject({ role: 'operator', is_admin: false });
    const stored = async (id: string) =>
      (
        await server.db.query<{ m: Record<string, unknown> }>(
          'select raw_app_meta_data as m from auth_users where id = $1',
          [id],
        )
      ).rows[0]?.m;
    expect(await stored(op.id)).toMatchObject({ role: 'operator', provider: 'email' });
    expect(await admin.setRole(op.id, 'user')).toMatchObject({ role: 'user' });
    const after = await stored(op.id);
    expect(after).not.toHaveProperty('role');
    expect(after).toMatchObject({ provider: 'email' });

    const boss = (await admin.listUsers({ search: 'admin@example.com', status: 'all', limit: 1 })).users[0]!;
    expect(boss.role).toBe('admin');
    await expect(admin.setRole(boss.id, 'operator')).rejects.toMatchObject({
      code: 'last_admin',
      status: 409,
    });
    expect((await admin.getUser(boss.id))?.role).toBe('admin');
    await expect(admin.deleteUser(boss.id)).rejects.toMatchObject({ code: 'last_admin', status: 409 });
    expect((await admin.getUser(boss.id))?.role).toBe('admin');
    await expect(admin.setRole('00000000-0000-4000-8000-000000000000', 'operator')).rejects.toMatchObject({
      code: 'user_not_found',
      status: 404,
    });
  });

  it('backs /api/admin when SUPABASE_URL is set, and the service key never reaches a response or a log', async () => {
    const lines: string[] = [];
    const app = hostedRoutes(createLogger('debug', (l) => lines.push(l)));
    const headers = { Authorization: 'Bearer ok', 'Content-Type': 'application/json' };
    const bodies: string[] = [];
    const create = await app.request('/users', {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'via-api@x.io', password: 'secret-pass' }),
    });
    expect(create.status).toBe(201);
    bodies.push(await create.text());
    const taken = await app.request('/users', {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'via-api@x.io', password: 'secret-pass' }),
    });
    expect(taken.status).toBe(422);
    bodies.push(await taken.text());
    const list = await app.request('/users?search=via-api', { headers });
    bodies.push(await list.text());
    expect(JSON.parse(bodies[2] as string).users).toHaveLength(1);
    bodies.push(await (await app.request('/stats', { headers })).text());
    for (const text of [...bodies, ...lines]) expect(text).not.toContain(SERVICE_KEY);

    // A wrong service key is the operator's problem: a 502 naming Supabase, without the key.
    const wrong = hostedRoutes(createLogger('silent'), 'wrong-key');
    const refused = await wrong.request('/users', { headers });
    expect(refused.status).toBe(502);
    expect(await refused.text()).not.toContain('wrong-key');
  });
  it('invites, mails recovery and sign-in links through Supabase, bans, answers details and exports; no sign-out (501)', async () => {
    // Supabase only follows redirects on its allow list; here that is the serving origin itself.
    const site = server.url;
    const hosted = createHostedUserAdmin({
      url: server.url,
      serviceRoleKey: SERVICE_KEY,
      pageSize: 2,
      siteOrigin: () => site,
    });
    const mails = async (to: string) =>
      (
        await server.db.query<{ kind: string; text_body: string }>(
          'select kind, text_body from mail_outbox where to_address = $1 order by created_at',
          [to],
        )
      ).rows;

    const invited = await hosted.inviteUser('invitee.hosted@x.io');
    expect(invited).toMatchObject({ email: 'invitee.hosted@x.io', email_confirmed_at: null });
    const [invite] = await mails('invitee.hosted@x.io');
    expect(invite?.kind).toBe('invite');
    expect(invite?.text_body).toContain(`redirect_to=${encodeURIComponent(`${site}/accept-invite`)}`);
    await expect(hosted.inviteUser('admin@example.com')).rejects.toMatchObject({
      code: 'email_exists',
      status: 422,
    });

    const member = await admin.createUser({ email: 'member.hosted@x.io', password: 'secret-pass' });
    const other = await admin.createUser({ email: 'other.hosted@x.io', password: 'secret-pass' });
    expect((await hosted.sendRecovery(member.id)).email).toBe('member.hosted@x.io');
    expect((await hosted.sendMagicLink(other.id)).email).toBe('other.hosted@x.io');
    expect((await mails('member.hosted@x.io')).map((m) => m.kind)).toEqual(['recovery']);
    expect((await mails('other.hosted@x.io')).map((m) => m.kind)).toEqual(['magic_link']);
    expect((await mails('member.hosted@x.io'))[0]?.text_body).toContain(encodeURIComponent(site));
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expect(hosted.sendRecovery(unknown)).rejects.toMatchObject({ code: 'user_not_found' });

    await expect(hosted.signOutEverywhere(member.id)).rejects.toMatchObject({
      code: 'not_supported',
      status: 501,
    });

    const banned = await hosted.banUser(member.id, '2h');
    expect(new Date(banned.banned_until as string).getTime()).toBeGreaterThan(Date.now() + 3600_000);
    const signIn = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: SERVICE_KEY },
      body: JSON.stringify({ email: 'member.hosted@x.io', password: 'secret-pass' }),
    });
    expect(signIn.status).toBe(400);
    expect(await signIn.json()).toMatchObject({ error_code: 'user_banned' });
    expect((await hosted.getUserDetail(member.id))?.banned_until).toBe(banned.banned_until);
    expect((await hosted.banUser(member.id, 'none')).banned_until).toBeNull();
    await expect(hosted.banUser(member.id, 'soon')).rejects.toMatchObject({
      code: 'invalid_duration',
      status: 400,
    });
    await expect(hosted.banUser(member.id, '99999999999h')).rejects.toMatchObject({
      code: 'invalid_duration',
      message: expect.stringMatching(/at most 2562047h/),
    });

    const detail = await hosted.getUserDetail(member.id);
    expect(detail).toMatchObject({ id: member.id, factors: [], app_metadata: { provider: 'email' } });
    expect(await hosted.getUserDetail(unknown)).toBeNull();

    const exported: string[] = [];
    for await (const page of hosted.exportUsers({ search: 'HOSTED', status: 'verified' }, 2)) {
      expect(page.length).toBeLessThanOrEqual(2);
      exported.push(...page.map((u) => u.email));
    }
    expect(exported.sort()).toEqual(['member.hosted@x.io', 'other.hosted@x.io']);
  });

  it('answers POST /users/:id/sign-out with 501 and the reason in hosted mode', async () => {
    const app = hostedRoutes(createLogger('silent'));
    const user = await admin.createUser({ email: 'signout.hosted@x.io', password: 'secret-pass' });
    const res = await app.request(`/users/${user.id}/sign-out`, {
      method: 'POST',
      headers: { Authorization: 'Bearer ok' },
    });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: 'not_supported', message: HOSTED_SIGN_OUT_MESSAGE });
    const invite = await app.request('/users/invite', {
      method: 'POST',
      headers: { Authorization: 'Bearer ok', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'api-invite.hosted@x.io' }),
    });
    expect(invite.status).toBe(201);
    const { rows } = await auditDb.query<{ action: string; target_email: string }>(
      "select action, target_email from admin_audit_log where action = 'user.invite'",
    );
    expect(rows).toEqual([{ action: 'user.invite', target_email: 'api-invite.hosted@x.io' }]);
  });
});
