import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import { bootstrapAdmins, bootstrapOperators } from './bootstrap.js';

describe('OPERATOR_EMAILS', () => {
  it('is a comma list of addresses, empty by default', () => {
    expect(parseConfig({}).OPERATOR_EMAILS).toEqual([]);
    expect(parseConfig({ OPERATOR_EMAILS: ' Op@X.io, b@y.io ,' }).OPERATOR_EMAILS).toEqual([
      'op@x.io',
      'b@y.io',
    ]);
    expect(() => parseConfig({ OPERATOR_EMAILS: 'not-an-address' })).toThrow(/OPERATOR_EMAILS/);
  });
});

for (const target of testDbTargets()) {
  describe(`bootstrap roles on ${target.name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await target.open(serverMigrations());
    });
    afterAll(() => db?.close());
    beforeEach(() => db.exec('delete from auth_users'));

    const roles = async () =>
      Object.fromEntries(
        (
          await db.query<{ email: string; meta: Record<string, unknown> }>(
            'select email, raw_app_meta_data as meta from auth_users order by email',
          )
        ).rows.map((r) => [r.email, r.meta.role ?? null]),
      );

    it('on an empty database creates ADMIN_EMAILS as admins; an address in both lists is an admin', async () => {
      const boot = await bootstrapAdmins(db, ['both@x.io', 'boss@x.io'], 'bootstrap-pass');
      expect(boot.created).toEqual(['both@x.io', 'boss@x.io']);
      expect(await bootstrapOperators(db, ['both@x.io', 'op@x.io'], ['both@x.io', 'boss@x.io'])).toEqual([]);
      // Operators are not created: there is no password to give them.
      expect(await roles()).toEqual({ 'both@x.io': 'admin', 'boss@x.io': 'admin' });
    });

    it('gives existing confirmed accounts the operator role, keeping their other app_metadata', async () => {
      await db.query(
        `insert into auth_users (email, email_confirmed_at, raw_app_meta_data) values
           ('Op@X.io', now(), '{"provider":"email","plan":"gold"}'),
           ('pending@x.io', null, '{}'),
           ('boss@x.io', now(), '{"role":"admin"}'),
           ('both@x.io', now(), '{}'),
           ('someone@x.io', now(), '{}')`,
      );
      const promoted = await bootstrapOperators(
        db,
        ['op@x.io', 'pending@x.io', 'boss@x.io', 'both@x.io', 'missing@x.io'],
        ['both@x.io'],
      );
      expect(promoted).toEqual(['Op@X.io']);
      expect(await roles()).toEqual({
        'Op@X.io': 'operator',
        'both@x.io': null,
        'boss@x.io': 'admin',
        'pending@x.io': null,
        'someone@x.io': null,
      });
      const { rows } = await db.query<{ meta: unknown }>(
        `select raw_app_meta_data as meta from auth_users where email = 'Op@X.io'`,
      );
      expect(rows[0]?.meta).toEqual({ provider: 'email', plan: 'gold', role: 'operator' });
      // Every start runs it again: nothing more to do.
      expect(await bootstrapOperators(db, ['op@x.io'], [])).toEqual([]);
      expect(await bootstrapOperators(db, [], [])).toEqual([]);
    });
  });
}
