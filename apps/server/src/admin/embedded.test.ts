import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { containsPattern, createEmbeddedUserAdmin } from './embedded.js';
import { AdminError, type UserAdmin } from './types.js';

/** Inserts users with explicit creation times (minutes ago) and confirmation. */
async function seed(db: Db, users: { email: string; minutesAgo: number; confirmed?: boolean }[]) {
  for (const u of users) {
    await db.query(
      `insert into auth_users (email, created_at, email_confirmed_at)
       values ($1, now() - make_interval(mins => $2), case when $3 then now() end)`,
      [u.email, u.minutesAgo, u.confirmed ?? false],
    );
  }
}

const emails = (page: { users: { email: string }[] }) => page.users.map((u) => u.email);

for (const target of testDbTargets()) {
  describe(`embedded user admin on ${target.name}`, () => {
    let db: Db;
    let admin: UserAdmin;

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      admin = createEmbeddedUserAdmin(db);
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('delete from auth_users');
    });

    it('has the trigram index behind email search, its extension outside any test schema', async () => {
      const { rows } = await db.query<{ indexdef: string }>(
        `select indexdef from pg_indexes
          where indexname = 'admin_auth_users_email_trgm_idx' and schemaname = current_schema()`,
      );
      const ext = await db.query<{ schema: string }>(
        `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
          where e.extname = 'pg_trgm'`,
      );
      expect(ext.rows[0]?.schema).toBe('public');
      // On PostgreSQL too: migrations take turns on one database (packages/db/src/migrate.ts's advisory lock), so
      // a first install of the extension is never raced and every schema gets its index.
      expect(rows.map((r) => r.indexdef)).toEqual([
        expect.stringMatching(/using gin \(lower\(email\) (public\.)?gin_trgm_ops\)/i),
      ]);
    });

    it('lists newest first and pages with a cursor without gaps or repeats', async () => {
      await seed(
        db,
        Array.from({ length: 7 }, (_, i) => ({ email: `u${i}@x.io`, minutesAgo: i, confirmed: i % 2 === 0 })),
      );
      const first = await admin.listUsers({ status: 'all', limit: 3 });
      expect(emails(first)).toEqual(['u0@x.io', 'u1@x.io', 'u2@x.io']);
      expect(first.total).toBe(7);
      const second = await admin.listUsers({ status: 'all', limit: 3, after: first.next ?? undefined });
      expect(emails(second)).toEqual(['u3@x.io', 'u4@x.io', 'u5@x.io']);
      const third = await admin.listUsers({ status: 'all', limit: 3, after: second.next ?? undefined });
      expect(emails(third)).toEqual(['u6@x.io']);
      expect(third.next).toBeNull();
    });

    it('breaks ties between equal creation times by id, so paging never skips a user', async () => {
      await db.query(
        `insert into auth_users (email, created_at) select 'same' || g || '@x.io', timestamptz '2026-01-01 00:00:00.123456+00'
           from generate_series(1, 5) g`,
      );
      const seen: string[] = [];
      let after;
      do {
        const page = await admin.listUsers({ status: 'all', limit: 2, after });
        seen.push(...emails(page));
        after = page.next ?? undefined;
      } while (after);
      expect(seen.sort()).toEqual(['same1@x.io', 'same2@x.io', 'same3@x.io', 'same4@x.io', 'same5@x.io']);
    });

    it('reads no password hash nor user metadata to list or find accounts', async () => {
      await seed(db, [{ email: 'summary@x.io', minutesAgo: 1 }]);
      const asked: string[] = [];
      const watched = new Proxy(db, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key !== 'query' || typeof value !== 'function') return value;
          return (text: string, ...rest: unknown[]) => {
            asked.push(text);
            return (value as (...args: unknown[]) => unknown).call(target, text, ...rest);
          };
        },
      });
      const watchedAdmin = createEmbeddedUserAdmin(watched);
      const [user] = (await watchedAdmin.listUsers({ status: 'all', limit: 10 })).users;
      await watchedAdmin.getUser(user?.id as string);
      expect(asked.length).toBeGreaterThan(0);
      for (const text of asked) expect(text).not.toMatch(/encrypted_password|raw_user_meta_data/);
    });

    it('searches a case-insensitive substring of the email, taking % and _ literally', async () => {
      await seed(db, [
        { email: 'Alice.Smith@Example.com', minutesAgo: 1 },
        { email: 'bob@example.com', minutesAgo: 2 },
        { email: 'carol_100%@x.io', minutesAgo: 3 },
        { email: 'carolx100y@x.io', minutesAgo: 4 },
      ]);
      expect(emails(await admin.listUsers({ search: 'SMITH@exa', status: 'all', limit: 10 }))).toEqual([
        'Alice.Smith@Example.com',
      ]);
      expect(emails(await admin.listUsers({ search: 'l_100%', status: 'all', limit: 10 }))).toEqual([
        'carol_100%@x.io',
      ]);
      const none = await admin.listUsers({ search: 'nobody', status: 'all', limit: 10 });
      expect(none).toEqual({ users: [], total: 0, next: null });
      expect(containsPattern('a%b_c\\')).toBe('%a\\%b\\_c\\\\%');
    });

    it('filters verified and unverified users, with totals for the filter', async () => {
      await seed(db, [
        { email: 'v1@x.io', minutesAgo: 1, confirmed: true },
        { email: 'p1@x.io', minutesAgo: 2 },
        { email: 'v2@x.io', minutesAgo: 3, confirmed: true },
      ]);
      const verified = await admin.listUsers({ status: 'verified', limit: 10 });
      expect(emails(verified)).toEqual(['v1@x.io', 'v2@x.io']);
      expect(verified.users[0]?.email_confirmed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const pending = await admin.listUsers({ status: 'unverified', limit: 10 });
      expect(pending).toMatchObject({ total: 1, users: [{ email: 'p1@x.io', email_confirmed_at: null }] });
      expect(await admin.stats()).toEqual({ total: 3, verified: 2, pending: 1 });
    });

    it('counts sign-ups per UTC day with the empty days filled in', async () => {
      await seed(db, [
        { email: 'today@x.io', minutesAgo: 0 },
        { email: 'old@x.io', minutesAgo: 60 * 24 * 40 },
      ]);
      const days = await admin.signupsPerDay(7);
      expect(days).toHaveLength(7);
      expect(days[6]).toEqual({ day: new Date().toISOString().slice(0, 10), count: 1 });
      expect(days.slice(0, 6).every((d) => d.count === 0)).toBe(true);
    });

    it('creates a confirmed user and refuses a duplicate address in any case', async () => {
      const user = await admin.createUser({ email: 'new@x.io', password: 'secret-pass' });
      expect(user).toMatchObject({ email: 'new@x.io', is_admin: false, role: 'user', last_sign_in_at: null });
      expect(user.email_confirmed_at).not.toBeNull();
      const { rows } = await db.query<{ encrypted_password: string }>(
        'select encrypted_password from auth_users where id = $1',
        [user.id],
      );
      expect(rows[0]?.encrypted_password).toMatch(/^\$argon2id\$/);
      await expect(admin.createUser({ email: 'NEW@x.io', password: 'secret-pass' })).rejects.toMatchObject({
        code: 'email_exists',
        status: 422,
      });
    });

    it('deletes a user and reports an unknown id', async () => {
      const user = await admin.createUser({ email: 'gone@x.io', password: 'secret-pass' });
      expect((await admin.deleteUser(user.id)).email).toBe('gone@x.io');
      expect(await admin.getUser(user.id)).toBeNull();
      await expect(admin.deleteUser(user.id)).rejects.toBeInstanceOf(AdminError);
    });

    it('verifies only the given users that were unverified, and returns those', async () => {
      await seed(db, [
        { email: 'a@x.io', minutesAgo: 1 },
        { email: 'b@x.io', minutesAgo: 2 },
        { email: 'c@x.io', minutesAgo: 3, confirmed: true },
        { email: 'd@x.io', minutesAgo: 4 },
      ]);
      const all = (await admin.listUsers({ status: 'all', limit: 10 })).users;
      const id = (email: string) => all.find((u) => u.email === email)?.id as string;
      const before = await db.query<{ email_confirmed_at: Date }>(
        'select email_confirmed_at from auth_users where id = $1',
        [id('c@x.io')],
      );
      const changed = await admin.verifyUsers([
        id('a@x.io'),
        id('c@x.io'),
        '00000000-0000-4000-8000-000000000000',
      ]);
      expect(changed.map((u) => u.email)).toEqual(['a@x.io']);
      const pending = await admin.listUsers({ status: 'unverified', limit: 10 });
      expect(emails(pending).sort()).toEqual(['b@x.io', 'd@x.io']);
      const after = await db.query<{ email_confirmed_at: Date }>(
        'select email_confirmed_at from auth_users where id = $1',
        [id('c@x.io')],
      );
      expect(after.rows[0]?.email_confirmed_at).toEqual(before.rows[0]?.email_confirmed_at);
      expect(await admin.verifyUsers([])).toEqual([]);
    });

    it('sets a role in app_metadata, keeps the other keys, and refuses to remove the last admin', async () => {
      const { rows } = await db.query<{ id: string }>(
        `insert into auth_users (email, raw_app_meta_data) values
           ('boss@x.io', '{"role":"admin"}'), ('op@x.io', '{"provider":"email","plan":"gold"}'),
           ('odd@x.io', '{"role":"Admin"}')
         returning id`,
      );
      const [boss, op, odd] = rows.map((r) => r.id) as [string, string, string];
      expect((await admin.getUser(odd))?.role).toBe('user');
      expect(await admin.setRole(op, 'operator')).toMatchObject({ email: 'op@x.io', role: 'operator' });
      const meta = async (id: string) =>
        (await db.query<{ m: unknown }>('select raw_app_meta_data as m from auth_users where id = $1', [id]))
          .rows[0]?.m;
      expect(await meta(op)).toEqual({ provider: 'email', plan: 'gold', role: 'operator' });
      await expect(admin.setRole(boss, 'operator')).rejects.toMatchObject({
        code: 'last_admin',
        status: 409,
      });
      expect(await admin.setRole(op, 'admin')).toMatchObject({ role: 'admin', is_admin: true });
      expect(await admin.setRole(boss, 'user')).toMatchObject({ role: 'user', is_admin: false });
      expect(await meta(boss)).toEqual({});
      await expect(admin.setRole('00000000-0000-4000-8000-000000000000', 'user')).rejects.toMatchObject({
        code: 'user_not_found',
        status: 404,
      });
      // The last admin may be "set" to admin again: nothing is removed.
      expect(await admin.setRole(op, 'admin')).toMatchObject({ role: 'admin' });
    });
  });
}
