// The most common passwords are refused wherever a user chooses one (PUT /user, also
// after a recovery link), through the official client over real HTTP, on PGlite and PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { isAuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { createUser } from '../user-store.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const password = 'correct horse 1';
let n = 0;
const newEmail = () => `weak${Date.now()}-${n++}@example.com`;

for (const target of testDbTargets()) {
  describe(`common passwords on ${target.name}`, () => {
    let db: Db;
    let srv: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db);
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    const expectPwned = (error: unknown) => {
      expect(isAuthWeakPasswordError(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
    };

    it('a signed-in user cannot change to a common password; the old one still works', async () => {
      const email = newEmail();
      await createUser(db, { email, password, emailConfirm: true });
      const client = srv.client();
      await client.auth.signInWithPassword({ email, password });
      expectPwned((await client.auth.updateUser({ password: 'password' })).error);
      expect((await srv.client().auth.signInWithPassword({ email, password })).error).toBeNull();
    });

    it('nor after following a recovery link', async () => {
      const email = newEmail();
      await createUser(db, { email, password, emailConfirm: true });
      await srv.client().auth.resetPasswordForEmail(email);
      const link = (await srv.lastMail(email))?.link as string;
      const res = await fetch(link, { redirect: 'manual' });
      const params = new URLSearchParams(new URL(res.headers.get('location') as string).hash.slice(1));
      const client = srv.client();
      await client.auth.setSession({
        access_token: params.get('access_token') as string,
        refresh_token: params.get('refresh_token') as string,
      });
      expectPwned((await client.auth.updateUser({ password: 'QWERTY123' })).error);
      expect((await client.auth.updateUser({ password: 'a fresh long one 7' })).error).toBeNull();
    });
  });
}
