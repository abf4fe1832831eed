// AUTH_AUTOCONFIRM, email change (both addresses confirm)
// and AUTH_SECURE_PASSWORD_CHANGE's reauthentication nonce, on PGlite and PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { DEFAULT_LIMITS, NO_LIMITS } from '../rate-limit.js';
import { createUser } from '../user-store.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const password = 'correct horse 1';
let n = 0;
const newEmail = () => `account${Date.now()}-${n++}@example.com`;

for (const target of testDbTargets()) {
  describe(`account changes with supabase-js on ${target.name}`, () => {
    let db: Db;
    let srv: AuthTestServer;
    let auto: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db, {
        env: { AUTH_SECURE_PASSWORD_CHANGE: 'true' },
        // Wrong passwords per account and address at their real limit; every other limit off.
        rateLimits: { ...NO_LIMITS, passwordAccountAddress: DEFAULT_LIMITS.passwordAccountAddress },
      });
      auto = await startAuthTestServer(db, { env: { AUTH_AUTOCONFIRM: 'true' } });
    });
    afterAll(async () => {
      await srv?.close();
      await auto?.close();
      await db?.close();
    });

    const signedIn = async (server = srv) => {
      const email = newEmail();
      await createUser(db, { email, password, emailConfirm: true });
      const client = server.client();
      const { error } = await client.auth.signInWithPassword({ email, password });
      expect(error).toBeNull();
      return { client, email };
    };

    it('with AUTH_AUTOCONFIRM a sign-up returns a session, /settings says so, a second one is refused', async () => {
      const email = newEmail();
      const { data, error } = await auto.client().auth.signUp({ email, password });
      expect(error).toBeNull();
      expect(data.session?.access_token).toBeTruthy();
      expect(data.user?.email_confirmed_at).toBeTruthy();
      expect((await auto.lastMail(email))?.kind).not.toBe('confirmation');
      const settings = await (
        await fetch(`${auto.url}/auth/v1/settings`, { headers: { apikey: auto.anonKey } })
      ).json();
      expect(settings).toMatchObject({ mailer_autoconfirm: true });
      const again = await auto.client().auth.signUp({ email, password: 'another password' });
      expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
      // Without the setting, the same server code still asks for confirmation.
      const other = await srv.client().auth.signUp({ email: newEmail(), password });
      expect(other.data.session).toBeNull();
    });

    it('changes the email only once both addresses confirm, each link used once', async () => {
      const { client, email } = await signedIn();
      const next = newEmail();
      const { data, error } = await client.auth.updateUser(
        { email: next.toUpperCase() },
        { emailRedirectTo: `${srv.origin}/profile` },
      );
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, new_email: next, email_change_sent_at: expect.any(String) });
      const toOld = await srv.lastMail(email);
      const toNew = await srv.lastMail(next);
      expect(toOld).toMatchObject({ kind: 'email_change' });
      expect(toNew).toMatchObject({ kind: 'email_change' });
      const oldLink = new URL(toOld?.link as string);
      expect(oldLink.origin).toBe(srv.origin);
      expect(oldLink.searchParams.get('type')).toBe('email_change');
      expect(oldLink.searchParams.get('redirect_to')).toBe(`${srv.origin}/profile`);

      // First half (the link to the old address): accepted, nothing changes yet.
      const first = await fetch(toOld?.link as string, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const fragment = new URLSearchParams(new URL(first.headers.get('location') as string).hash.slice(1));
      expect(fragment.get('message')).toMatch(/^Confirmation link accepted/);
      expect((await client.auth.getUser()).data.user?.email).toBe(email);
      const reused = await fetch(toOld?.link as string, { redirect: 'manual' });
      expect(new URL(reused.headers.get('location') as string).hash).toContain('error_code=otp_expired');

      // Second half (the code mailed to the new address): the address moves.
      const second = await srv
        .client()
        .auth.verifyOtp({ email: next, token: toNew?.code as string, type: 'email_change' });
      expect(second.error).toBeNull();
      expect(second.data.user).toMatchObject({ email: next });
      expect(second.data.user?.new_email).toBeUndefined();
      expect((await srv.client().auth.signInWithPassword({ email: next, password })).error).toBeNull();
      expect((await srv.client().auth.signInWithPassword({ email, password })).error?.code).toBe(
        'invalid_credentials',
      );
    });

    it('refuses an email change to a taken address (422 email_exists) and a malformed one (400)', async () => {
      const { client } = await signedIn();
      const { email: taken } = await signedIn();
      expect((await client.auth.updateUser({ email: taken })).error).toMatchObject({
        status: 422,
        code: 'email_exists',
      });
      expect((await client.auth.updateUser({ email: 'not an address' })).error).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
    });

    it('refuses a change to the current address (422 email_exists, in any case), mailing nothing', async () => {
      const { client, email } = await signedIn();
      const before = await srv.mailCount(email);
      for (const same of [email, ` ${email.toUpperCase()} `]) {
        const { error } = await client.auth.updateUser({ email: same });
        expect(error).toMatchObject({ status: 422, code: 'email_exists' });
        expect(error?.message).toBe('This is already your email address.');
      }
      expect(await srv.mailCount(email)).toBe(before);
      const { data } = await client.auth.getUser();
      expect(data.user?.new_email).toBeUndefined();
      // With other changes the same address is ignored, as GoTrue does: the metadata is saved.
      const withData = await client.auth.updateUser({ email, data: { name: 'Ada' } });
      expect(withData.error).toBeNull();
      expect(withData.data.user?.user_metadata).toMatchObject({ name: 'Ada' });
    });

    it('a new password needs the current one, and wrong ones count as guesses at a sign-in do', async () => {
      const { client, email } = await signedIn();
      const missing = await client.auth.updateUser({ password: 'taken over 1' });
      expect(missing.error).toMatchObject({ status: 400, code: 'current_password_required' });
      for (let i = 0; i < 5; i++) {
        const wrong = await client.auth.updateUser({
          password: 'taken over 1',
          current_password: `guess ${i}`,
        });
        expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_mismatch' });
      }
      // The sixth guess from this address meets the sign-in's limit, right or wrong.
      const limited = await client.auth.updateUser({ password: 'taken over 1', current_password: password });
      expect(limited.error).toMatchObject({ status: 429 });
      // Nothing was changed: the old password still signs in, the new one does not.
      const fresh = srv.client();
      expect((await fresh.auth.signInWithPassword({ email, password: 'taken over 1' })).error).not.toBeNull();
    });

    it('a reset link’s session sets a new password without the old one', async () => {
      const { email } = await signedIn();
      const client = srv.client();
      expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
      const mail = await srv.lastMail(email);
      const { error } = await client.auth.verifyOtp({ email, token: mail?.code as string, type: 'recovery' });
      expect(error).toBeNull();
      expect((await client.auth.updateUser({ password: 'after reset 1' })).error).toBeNull();
      expect(
        (await srv.client().auth.signInWithPassword({ email, password: 'after reset 1' })).error,
      ).toBeNull();
    });

    it('AUTH_SECURE_PASSWORD_CHANGE: an older session needs the mailed nonce, once', async () => {
      const { client, email } = await signedIn();
      // A fresh session (under 24 hours) changes its password without a nonce, as in GoTrue.
      const fresh = 'fresh session 1';
      expect(
        (await client.auth.updateUser({ password: fresh, current_password: password })).error,
      ).toBeNull();
      await db.query(`update auth_sessions set created_at = now() - interval '25 hours'`);

      const needed = await client.auth.updateUser({ password: 'new password 2', current_password: fresh });
      expect(needed.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
      expect((await client.auth.reauthenticate()).error).toBeNull();
      const mail = await srv.lastMail(email);
      expect(mail).toMatchObject({
        kind: 'reauthentication',
        link: null,
        code: expect.stringMatching(/^\d{6}$/),
      });
      const wrong = String((Number(mail?.code) + 1) % 1_000_000).padStart(6, '0');
      const bad = await client.auth.updateUser({
        password: 'new password 2',
        current_password: fresh,
        nonce: wrong,
      });
      expect(bad.error).toMatchObject({ status: 400, code: 'reauthentication_not_valid' });
      const ok = await client.auth.updateUser({
        password: 'new password 2',
        current_password: fresh,
        nonce: mail?.code as string,
      });
      expect(ok.error).toBeNull();
      const replay = await client.auth.updateUser({
        password: 'new password 3',
        current_password: 'new password 2',
        nonce: mail?.code as string,
      });
      expect(replay.error).toMatchObject({ status: 400, code: 'reauthentication_not_valid' });
      expect(
        (await srv.client().auth.signInWithPassword({ email, password: 'new password 2' })).error,
      ).toBeNull();
    });
  });
}
