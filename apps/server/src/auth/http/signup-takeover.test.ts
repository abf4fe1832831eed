// Registering an address first must not let a stranger own it once its owner
// confirms. Through the official client over real HTTP, on PGlite and (with TEST_DATABASE_URL)
// PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { bootstrapOperators } from '../bootstrap.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const attackerPassword = 'attacker chose this 1';
const ownerPassword = 'owner chose this 2';
let n = 0;
const newEmail = () => `victim${Date.now()}-${n++}@example.com`;

for (const target of testDbTargets()) {
  describe(`sign-up of an unconfirmed address on ${target.name}`, () => {
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

    /** Follows a mail link like a browser; the fragment's parameters of the 303 target. */
    const follow = async (link: string) => {
      const res = await fetch(link, { redirect: 'manual' });
      expect(res.status).toBe(303);
      return new URLSearchParams(new URL(res.headers.get('location') as string).hash.slice(1));
    };
    const signIn = (email: string, password: string) =>
      srv.client().auth.signInWithPassword({ email, password });
    const mailLink = async (email: string) => (await srv.lastMail(email))?.link as string;
    const attackerSignsUp = async (email: string) => {
      const first = await srv
        .client()
        .auth.signUp({ email, password: attackerPassword, options: { data: { name: 'attacker' } } });
      expect(first.error).toBeNull();
      return first;
    };

    it('a later sign-up replaces the pending password: the owner confirms their own, the first link is dead', async () => {
      const email = newEmail();
      const first = await attackerSignsUp(email);
      const attackerLink = await mailLink(email);

      const second = await srv
        .client()
        .auth.signUp({ email, password: ownerPassword, options: { data: { name: 'owner' } } });
      expect(second.error).toBeNull();
      expect(second.data.session).toBeNull();
      // The answer looks like a first sign-up's (GoTrue's shape): same keys, one identity, owner's data.
      expect(Object.keys(second.data.user ?? {}).sort()).toEqual(Object.keys(first.data.user ?? {}).sort());
      expect(second.data.user?.identities).toHaveLength(1);
      expect(second.data.user?.user_metadata).toEqual({ name: 'owner' });

      // The stranger's link (mailed to the owner) no longer confirms anything.
      expect((await follow(attackerLink)).get('error_code')).toBe('otp_expired');
      const confirmed = await follow(await mailLink(email));
      expect(confirmed.get('access_token')).toBeTruthy();

      const attacker = await signIn(email, attackerPassword);
      expect(attacker.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
      const owner = await signIn(email, ownerPassword);
      expect(owner.error).toBeNull();
      expect(owner.data.user?.user_metadata).toEqual({ name: 'owner' });

      // OPERATOR_EMAILS at the next start: the role goes to the account only the owner can enter.
      expect(await bootstrapOperators(db, [email])).toEqual([email]);
      expect((await signIn(email, attackerPassword)).error?.code).toBe('invalid_credentials');
      const operator = await signIn(email, ownerPassword);
      expect(operator.data.user?.app_metadata.role).toBe('operator');
    });

    it('a pending address gets no role at start (OPERATOR_EMAILS) until confirmed', async () => {
      const email = newEmail();
      await attackerSignsUp(email);
      expect(await bootstrapOperators(db, [email])).toEqual([]);
    });

    it('an invitation to a pre-registered address drops the stranger\u2019s password', async () => {
      const email = newEmail();
      await attackerSignsUp(email);
      const invited = await srv.client('service').auth.admin.inviteUserByEmail(email);
      expect(invited.error).toBeNull();
      const accepted = await follow(await mailLink(email));
      expect(accepted.get('type')).toBe('invite');
      expect(accepted.get('access_token')).toBeTruthy();
      expect((await signIn(email, attackerPassword)).error?.code).toBe('invalid_credentials');
      // The invitee chooses theirs (what /accept-invite does) and it is the one that works.
      const invitee = srv.client();
      await invitee.auth.setSession({
        access_token: accepted.get('access_token') as string,
        refresh_token: accepted.get('refresh_token') as string,
      });
      expect((await invitee.auth.updateUser({ password: ownerPassword })).error).toBeNull();
      expect((await signIn(email, ownerPassword)).error).toBeNull();
    });

    it('an invitation\u2019s code (type email) does not activate the stranger\u2019s password either', async () => {
      const email = newEmail();
      await attackerSignsUp(email);
      await srv.client('service').auth.admin.inviteUserByEmail(email);
      const code = (await srv.lastMail(email))?.code as string;
      const verified = await srv.client().auth.verifyOtp({ email, token: code, type: 'email' });
      expect(verified.error).toBeNull();
      expect((await signIn(email, attackerPassword)).error?.code).toBe('invalid_credentials');
    });

    it('a magic-link request for a pre-registered address confirms it without the stranger\u2019s password', async () => {
      const email = newEmail();
      await attackerSignsUp(email);
      expect((await srv.client().auth.signInWithOtp({ email })).error).toBeNull();
      expect((await follow(await mailLink(email))).get('access_token')).toBeTruthy();
      expect((await signIn(email, attackerPassword)).error?.code).toBe('invalid_credentials');
    });

    it('a recovery link that confirms a pre-registered address drops the stranger\u2019s password', async () => {
      const email = newEmail();
      await attackerSignsUp(email);
      expect((await srv.client().auth.resetPasswordForEmail(email)).error).toBeNull();
      expect((await follow(await mailLink(email))).get('type')).toBe('recovery');
      expect((await signIn(email, attackerPassword)).error?.code).toBe('invalid_credentials');
    });

    it('the same person signing up twice keeps one account and confirms the newest password', async () => {
      const email = newEmail();
      const first = await srv.client().auth.signUp({ email, password: ownerPassword });
      const again = await srv.client().auth.signUp({ email, password: `${ownerPassword}!` });
      expect(again.data.user?.id).toBe(first.data.user?.id);
      await follow(await mailLink(email));
      expect((await signIn(email, `${ownerPassword}!`)).error).toBeNull();
    });
  });
}
