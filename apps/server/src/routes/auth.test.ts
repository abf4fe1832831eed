import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { isAuthApiError, isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../auth/admin-users.js';
import { signAccessToken } from '../auth/tokens.js';
import { createVerifyAccessToken } from '../auth/verify-access-token.js';
import { serverMigrations } from '../db/migrations/index.js';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';
import { startAuthTestServer, type AuthTestServer } from './auth-test-server.js';

const password = 'correct horse 1';
let n = 0;
const newEmail = () => `user${Date.now()}-${n++}@example.com`;

for (const target of testDbTargets()) {
  describe(`embedded auth with the official supabase-js on ${target.name}`, () => {
    let db: Db;
    let srv: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db, { env: { AUTH_REFRESH_REUSE_INTERVAL: '0' } });
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    /** Signs up and confirms through the mailed link's token; returns a signed-in client. */
    async function confirmedUser(email = newEmail()) {
      const client = srv.client();
      const { error } = await client.auth.signUp({ email, password });
      expect(error).toBeNull();
      const mail = await srv.lastMail(email);
      const token = new URL(mail?.link as string).searchParams.get('token') as string;
      const verified = await client.auth.verifyOtp({ token_hash: token, type: 'signup' });
      expect(verified.error).toBeNull();
      return { client, email, session: verified.data.session };
    }

    it('signs up with email confirmation required and mails the link and the admins', async () => {
      const email = newEmail();
      const { data, error } = await srv.client().auth.signUp({
        email: email.toUpperCase(),
        password,
        options: { emailRedirectTo: `${srv.url}/ediscovery`, data: { plan: 'trial' } },
      });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user).toMatchObject({ email, aud: 'authenticated', user_metadata: { plan: 'trial' } });
      expect(data.user?.identities).toHaveLength(1);
      expect(data.user?.email_confirmed_at).toBeUndefined();
      const mail = await srv.lastMail(email);
      expect(mail).toMatchObject({ subject: 'Confirm your signup', kind: 'confirmation' });
      const link = new URL(mail?.link as string);
      expect(link.pathname).toBe('/auth/v1/verify');
      expect(link.searchParams.get('type')).toBe('signup');
      expect(link.searchParams.get('redirect_to')).toBe(`${srv.url}/ediscovery`);
      const notice = await srv.lastMail('admin@example.com');
      expect(notice?.subject).toBe(`New signup: ${email}`);
    });

    it('refuses sign-in until confirmed, and never tells a wrong password from an unknown email', async () => {
      const email = newEmail();
      const client = srv.client();
      await client.auth.signUp({ email, password });
      const wrong = await client.auth.signInWithPassword({ email, password: 'not the password' });
      const unknown = await client.auth.signInWithPassword({ email: newEmail(), password });
      const unconfirmed = await client.auth.signInWithPassword({ email, password });
      expect(wrong.error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
      expect(unknown.error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
      expect(unconfirmed.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
    });

    it('follows the GET confirmation link to the page the user came from, signed in', async () => {
      const email = newEmail();
      await srv
        .client()
        .auth.signUp({ email, password, options: { emailRedirectTo: `${srv.url}/onboarding` } });
      const link = (await srv.lastMail(email))?.link as string;
      const res = await fetch(link, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location') as string);
      expect(`${location.origin}${location.pathname}`).toBe(`${srv.url}/onboarding`);
      const fragment = new URLSearchParams(location.hash.slice(1));
      expect(fragment.get('type')).toBe('signup');
      expect(fragment.get('token_type')).toBe('bearer');
      expect(fragment.get('expires_in')).toBe('3600');
      const client = srv.client();
      const set = await client.auth.setSession({
        access_token: fragment.get('access_token') as string,
        refresh_token: fragment.get('refresh_token') as string,
      });
      expect(set.error).toBeNull();
      const { data } = await client.auth.getUser();
      expect(data.user?.email).toBe(email);
      expect(data.user?.email_confirmed_at).toBeTruthy();

      // The link is single-use: a second visit lands with the error in the fragment.
      const again = await fetch(link, { redirect: 'manual' });
      const errorFragment = new URLSearchParams(
        new URL(again.headers.get('location') as string).hash.slice(1),
      );
      expect(errorFragment.get('error_code')).toBe('otp_expired');
      expect(errorFragment.get('error')).toBe('access_denied');
    });

    it('sends a foreign redirect_to back to this site instead', async () => {
      const email = newEmail();
      await srv
        .client()
        .auth.signUp({ email, password, options: { emailRedirectTo: 'https://evil.example/steal' } });
      const res = await fetch((await srv.lastMail(email))?.link as string, { redirect: 'manual' });
      expect(new URL(res.headers.get('location') as string).origin).toBe(srv.origin);
    });

    it('answers a sign-up for a confirmed address with a look-alike user and sends no mail', async () => {
      const { email } = await confirmedUser();
      const before = await srv.mailCount(email);
      const { data, error } = await srv.client().auth.signUp({ email, password: 'another password' });
      expect(error).toBeNull();
      expect(data.user?.identities).toEqual([]);
      expect(data.session).toBeNull();
      expect(await srv.mailCount(email)).toBe(before);
    });

    it('refuses weak passwords with the reasons', async () => {
      const { error } = await srv.client().auth.signUp({ email: newEmail(), password: '12345' });
      expect(isAuthWeakPasswordError(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
      // Issue 27: the most common passwords are GoTrue's weak_password with the `pwned` reason.
      for (const common of ['password', 'Password1', 'qwerty123']) {
        const refused = await srv.client().auth.signUp({ email: newEmail(), password: common });
        expect(isAuthWeakPasswordError(refused.error), common).toBe(true);
        expect(refused.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
        expect(refused.error?.message).toMatch(/known to be weak and easy to guess/);
      }
      const long = await srv.client().auth.signUp({ email: newEmail(), password: 'x'.repeat(73) });
      expect(long.error).toMatchObject({ status: 400, code: 'validation_failed' });
      const badEmail = await srv.client().auth.signUp({ email: 'not-an-email', password });
      expect(badEmail.error).toMatchObject({ status: 400, code: 'validation_failed' });
    });

    it('signs in with a password and reads the user with the access token', async () => {
      const { email } = await confirmedUser();
      const client = srv.client();
      const { data, error } = await client.auth.signInWithPassword({ email, password });
      expect(error).toBeNull();
      expect(data.session?.expires_in).toBe(3600);
      expect(data.session?.token_type).toBe('bearer');
      expect(data.user?.last_sign_in_at).toBeTruthy();
      const user = await client.auth.getUser();
      expect(user.data.user?.email).toBe(email);
      const claims = await client.auth.getClaims();
      expect(claims.error).toBeNull();
      expect(claims.data?.claims).toMatchObject({
        sub: data.user?.id,
        aud: 'authenticated',
        role: 'authenticated',
        aal: 'aal1',
      });
    });

    it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
      const { client } = await confirmedUser();
      const first = (await client.auth.getSession()).data.session?.refresh_token as string;
      const r1 = await client.auth.refreshSession();
      expect(r1.error).toBeNull();
      const second = r1.data.session?.refresh_token as string;
      expect(second).not.toBe(first);
      // The parent of the active token returns that same active token (a lost response).
      const lost = await srv.client().auth.refreshSession({ refresh_token: first });
      expect(lost.data.session?.refresh_token).toBe(second);
      const r2 = await client.auth.refreshSession();
      const third = r2.data.session?.refresh_token as string;
      // `first` is now two generations old and the reuse interval is 0: the family is revoked.
      const reuse = await srv.client().auth.refreshSession({ refresh_token: first });
      expect(reuse.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
      const afterRevoke = await srv.client().auth.refreshSession({ refresh_token: third });
      expect(afterRevoke.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
      const unknown = await srv.client().auth.refreshSession({ refresh_token: 'nope-nope-nope' });
      expect(unknown.error).toMatchObject({ code: 'refresh_token_not_found' });
    });

    it('logs out globally, locally or the other sessions', async () => {
      const { email } = await confirmedUser();
      const sign = async () => {
        const c = srv.client();
        await c.auth.signInWithPassword({ email, password });
        return c;
      };
      const a = await sign();
      const b = await sign();
      const c = await sign();
      const tokenB = (await b.auth.getSession()).data.session?.access_token as string;
      expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
      expect((await a.auth.getUser()).error).toBeNull();
      const gone = await srv.client().auth.getUser(tokenB);
      expect(isAuthSessionMissingError(gone.error)).toBe(true);
      const d = await sign();
      const tokenD = (await d.auth.getSession()).data.session?.access_token as string;
      expect((await d.auth.signOut({ scope: 'local' })).error).toBeNull();
      expect(await srv.verifyAccessToken(tokenD)).toBeNull();
      expect((await a.auth.getUser()).error).toBeNull();
      const tokenA = (await a.auth.getSession()).data.session?.access_token as string;
      expect(await srv.verifyAccessToken(tokenA)).toMatchObject({ email, role: 'user' });
      // `c` was one of the others; `e` signs in afterwards, and a global log-out ends its session too.
      const tokenC = (await c.auth.getSession()).data.session?.access_token as string;
      expect(await srv.verifyAccessToken(tokenC)).toBeNull();
      const e = await sign();
      const tokenE = (await e.auth.getSession()).data.session?.access_token as string;
      expect(await srv.verifyAccessToken(tokenE)).toMatchObject({ email });
      expect((await a.auth.signOut()).error).toBeNull();
      expect(await srv.verifyAccessToken(tokenA)).toBeNull();
      expect(await srv.verifyAccessToken(tokenE)).toBeNull();
      expect((await a.auth.getSession()).data.session).toBeNull();
    });

    it('recovers a password: {} for any address, a mailed link, a new password', async () => {
      const { email } = await confirmedUser();
      const unknown = await srv.client().auth.resetPasswordForEmail(newEmail());
      expect(unknown).toEqual({ data: {}, error: null });
      const known = await srv.client().auth.resetPasswordForEmail(email, { redirectTo: `${srv.url}/` });
      expect(known.error).toBeNull();
      const mail = await srv.lastMail(email);
      expect(mail?.subject).toBe('Reset your password');
      const token = new URL(mail?.link as string).searchParams.get('token') as string;
      const client = srv.client();
      const verified = await client.auth.verifyOtp({ token_hash: token, type: 'recovery' });
      expect(verified.error).toBeNull();
      const same = await client.auth.updateUser({ password });
      expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
      const weak = await client.auth.updateUser({ password: 'abc' });
      expect(isAuthWeakPasswordError(weak.error)).toBe(true);
      const updated = await client.auth.updateUser({ password: 'a brand new one', data: { theme: 'dark' } });
      expect(updated.error).toBeNull();
      expect(updated.data.user?.user_metadata).toMatchObject({ theme: 'dark' });
      const old = await srv.client().auth.signInWithPassword({ email, password });
      expect(old.error?.code).toBe('invalid_credentials');
      const fresh = await srv.client().auth.signInWithPassword({ email, password: 'a brand new one' });
      expect(fresh.error).toBeNull();
      const missing = await srv.client().auth.resetPasswordForEmail('');
      expect(missing.error).toMatchObject({ status: 400, code: 'validation_failed' });
    });

    it('supports the PKCE flow: the link returns a code that only the verifier can exchange', async () => {
      const email = newEmail();
      const client = srv.client('anon', 'pkce');
      const signedUp = await client.auth.signUp({
        email,
        password,
        options: { emailRedirectTo: `${srv.url}/kb-import` },
      });
      expect(signedUp.error).toBeNull();
      const link = new URL((await srv.lastMail(email))?.link as string);
      expect(link.searchParams.get('token')).toMatch(/^pkce_[0-9a-f]{56}$/);
      const res = await fetch(link, { redirect: 'manual' });
      const location = new URL(res.headers.get('location') as string);
      expect(location.pathname).toBe('/kb-import');
      expect(location.hash).toBe('');
      const code = location.searchParams.get('code') as string;
      expect(code).toBeTruthy();
      const exchanged = await client.auth.exchangeCodeForSession(code);
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.user?.email).toBe(email);
      expect(exchanged.data.user?.email_confirmed_at).toBeTruthy();

      const post = (body: unknown) =>
        fetch(`${srv.url}/auth/v1/token?grant_type=pkce`, {
          method: 'POST',
          headers: {
            apikey: srv.anonKey,
            'Content-Type': 'application/json',
            'X-Supabase-Api-Version': '2024-01-01',
          },
          body: JSON.stringify(body),
        });
      const replay = await post({ auth_code: code, code_verifier: 'x'.repeat(56) });
      expect(replay.status).toBe(404);
      expect(await replay.json()).toMatchObject({ code: 'flow_state_not_found' });
      expect(await (await post({ auth_code: '', code_verifier: '' })).json()).toMatchObject({
        code: 'validation_failed',
      });

      // A code presented with the wrong verifier is refused.
      await client.auth.resetPasswordForEmail(email, { redirectTo: `${srv.url}/` });
      const recovery = await fetch((await srv.lastMail(email))?.link as string, { redirect: 'manual' });
      const recoveryCode = new URL(recovery.headers.get('location') as string).searchParams.get('code');
      const wrong = await post({ auth_code: recoveryCode, code_verifier: 'y'.repeat(56) });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ code: 'bad_code_verifier' });

      const badChallenge = await srv.client().auth.signUp({ email: newEmail(), password });
      expect(badChallenge.error).toBeNull();
      const invalid = await fetch(`${srv.url}/auth/v1/signup`, {
        method: 'POST',
        headers: {
          apikey: srv.anonKey,
          'Content-Type': 'application/json',
          'X-Supabase-Api-Version': '2024-01-01',
        },
        body: JSON.stringify({
          email: newEmail(),
          password,
          code_challenge: 'short',
          code_challenge_method: 's256',
        }),
      });
      expect(invalid.status).toBe(400);
    });

    it('resends the confirmation mail to an unconfirmed address only', async () => {
      const email = newEmail();
      await srv.client().auth.signUp({ email, password });
      const first = (await srv.lastMail(email))?.link;
      const again = await srv.client().auth.resend({ type: 'signup', email });
      expect(again.error).toBeNull();
      expect(await srv.mailCount(email)).toBe(2);
      // The new link replaces the old one.
      expect((await fetch(first as string, { redirect: 'manual' })).headers.get('location')).toContain(
        'error_code=otp_expired',
      );
      const unknown = await srv.client().auth.resend({ type: 'signup', email: newEmail() });
      expect(unknown.error).toBeNull();
      const { email: confirmed } = await confirmedUser();
      const before = await srv.mailCount(confirmed);
      expect((await srv.client().auth.resend({ type: 'signup', email: confirmed })).error).toBeNull();
      expect(await srv.mailCount(confirmed)).toBe(before);
    });

    it('verifies the six-digit code from the mail as well as the link', async () => {
      const email = newEmail();
      await srv.client().auth.signUp({ email, password });
      const code = /code: (\d{6})/.exec((await srv.lastMail(email))?.text ?? '')?.[1] as string;
      const wrong = await srv
        .client()
        .auth.verifyOtp({ email, token: code === '000000' ? '111111' : '000000', type: 'signup' });
      expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
      const right = await srv.client().auth.verifyOtp({ email, token: code, type: 'signup' });
      expect(right.error).toBeNull();
      expect(right.data.session?.access_token).toBeTruthy();
    });

    it('administers users with the service-role key only', async () => {
      const admin = srv.client('service').auth.admin;
      const email = newEmail();
      const created = await admin.createUser({
        email,
        password,
        email_confirm: true,
        app_metadata: { team: 'a' },
      });
      expect(created.error).toBeNull();
      expect(created.data.user?.email_confirmed_at).toBeTruthy();
      const id = created.data.user?.id as string;
      const dup = await admin.createUser({ email, password });
      expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });
      const none = await admin.createUser({ password });
      expect(none.error).toMatchObject({ status: 400, code: 'validation_failed' });

      for (let i = 0; i < 2; i++) await admin.createUser({ email: newEmail(), password });
      const page1 = await admin.listUsers({ page: 1, perPage: 2 });
      expect(page1.error).toBeNull();
      expect(page1.data.users).toHaveLength(2);
      expect(page1.data).toMatchObject({ nextPage: 2 });
      expect((page1.data as { total: number }).total).toBeGreaterThanOrEqual(3);
      expect(page1.data.users[0]?.email).not.toBe(page1.data.users[1]?.email);
      const all = await admin.listUsers();
      expect(all.data.users.some((u) => u.email === email)).toBe(true);
      // Empty page=/per_page= are accepted, and a browser may read the pagination headers (CORS).
      const raw = await fetch(`${srv.url}/auth/v1/admin/users?page=&per_page=`, {
        headers: {
          apikey: srv.anonKey,
          Authorization: `Bearer ${srv.serviceRoleKey}`,
          Origin: 'http://x.test',
        },
      });
      expect(raw.status).toBe(200);
      expect(Number(raw.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
      expect(raw.headers.get('link')).toMatch(/^<\/admin\/users\?page=\d+&per_page=\d+>; rel="last"/);
      expect(raw.headers.get('access-control-expose-headers')?.toLowerCase().split(',')).toEqual(
        expect.arrayContaining(['x-supabase-api-version', 'x-total-count', 'link']),
      );

      const fetched = await admin.getUserById(id);
      expect(fetched.data.user?.email).toBe(email);
      const updated = await admin.updateUserById(id, {
        app_metadata: { role: 'admin' },
        user_metadata: { name: 'A' },
      });
      expect(updated.data.user?.app_metadata).toMatchObject({ team: 'a', role: 'admin', provider: 'email' });
      const signedIn = await srv.client().auth.signInWithPassword({ email, password });
      expect(await srv.verifyAccessToken(signedIn.data.session?.access_token as string)).toMatchObject({
        role: 'admin',
      });

      // An unconfirmed user: the admin confirms it and sets its password.
      const pendingEmail = newEmail();
      const pending = await admin.createUser({ email: pendingEmail, password });
      const pendingId = pending.data.user?.id as string;
      const early = await srv.client().auth.signInWithPassword({ email: pendingEmail, password });
      expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
      const weakUpdate = await admin.updateUserById(pendingId, { password: 'abc' });
      expect(weakUpdate.error).toMatchObject({ status: 422, code: 'weak_password' });
      // As GoTrue: the admin API refuses a common password with 422 weak_password too (not 400).
      const commonUpdate = await admin.updateUserById(pendingId, { password: 'password' });
      expect(commonUpdate.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
      const commonCreate = await admin.createUser({ email: newEmail(), password: 'iloveyou' });
      expect(commonCreate.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
      const shortCreate = await admin.createUser({ email: newEmail(), password: 'abc' });
      expect(shortCreate.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
      const confirmed = await admin.updateUserById(pendingId, {
        email_confirm: true,
        password: 'set by the admin',
      });
      expect(confirmed.data.user?.email_confirmed_at).toBeTruthy();
      const late = await srv
        .client()
        .auth.signInWithPassword({ email: pendingEmail, password: 'set by the admin' });
      expect(late.error).toBeNull();

      expect((await admin.deleteUser(id)).error).toBeNull();
      const afterDelete = await admin.getUserById(id);
      expect(afterDelete.error).toMatchObject({ status: 404, code: 'user_not_found' });
      expect((await srv.client().auth.getUser(signedIn.data.session?.access_token)).error).toBeTruthy();

      const asAnon = await srv.client('anon').auth.admin.listUsers();
      expect(asAnon.error).toMatchObject({ status: 403, code: 'not_admin' });
      const asUser = await fetch(`${srv.url}/auth/v1/admin/users`, {
        headers: { apikey: srv.anonKey, Authorization: `Bearer ${signedIn.data.session?.access_token}` },
      });
      expect(asUser.status).toBe(403);
    });

    it('enrolls, challenges, verifies and unenrolls a TOTP factor; phone is refused', async () => {
      const { client } = await confirmedUser();
      const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
      expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
      const enrolled = await client.auth.mfa.enroll({
        factorType: 'totp',
        friendlyName: 'phone app',
        issuer: 'Engage',
      });
      expect(enrolled.error).toBeNull();
      const totp = enrolled.data as { id: string; totp: { secret: string; uri: string; qr_code: string } };
      expect(totp.totp.uri).toMatch(/^otpauth:\/\/totp\//);
      expect(totp.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
      const dup = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
      expect(dup.error).toMatchObject({ code: 'mfa_factor_name_conflict' });

      const challenge = await client.auth.mfa.challenge({ factorId: totp.id });
      expect(challenge.error).toBeNull();
      const challengeId = challenge.data?.id as string;
      const wrong = await client.auth.mfa.verify({ factorId: totp.id, challengeId, code: '000000' });
      expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(totp.totp.secret) }).generate();
      const ok = await client.auth.mfa.verify({ factorId: totp.id, challengeId, code });
      expect(ok.error).toBeNull();
      const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
      const factors = await client.auth.mfa.listFactors();
      expect(factors.data?.totp.map((f) => f.id)).toEqual([totp.id]);
      const removed = await client.auth.mfa.unenroll({ factorId: totp.id });
      expect(removed.error).toBeNull();
      const missing = await client.auth.mfa.challenge({ factorId: totp.id });
      expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    });

    it('locks the outbox at /_mail without its token (routes/mail.test.ts opens it with one)', async () => {
      const email = newEmail();
      await srv.client().auth.signUp({ email, password });
      const list = await fetch(`${srv.url}/_mail`);
      expect(list.status).toBe(401);
      expect(list.headers.get('cache-control')).toBe('no-store');
      expect(await list.text()).not.toContain(email);
    });

    it('verifies tokens in hosted mode through the JWKS, as against hosted Supabase', async () => {
      const { email, session } = await confirmedUser();
      const hosted = createVerifyAccessToken({ mode: 'hosted', supabaseUrl: srv.url, anonKey: srv.anonKey });
      const token = session?.access_token as string;
      expect(await hosted(token)).toMatchObject({ email, role: 'user', id: session?.user.id });
      expect(await hosted(`${token.slice(0, -4)}AAAA`)).toBeNull();
      expect(await hosted('not-a-jwt')).toBeNull();
    });

    it('answers bad input with the contract status and code, never a 500', async () => {
      const post = (path: string, body: string, headers: Record<string, string> = {}) =>
        fetch(`${srv.url}/auth/v1${path}`, {
          method: 'POST',
          headers: {
            apikey: srv.anonKey,
            'Content-Type': 'application/json',
            'X-Supabase-Api-Version': '2024-01-01',
            ...headers,
          },
          body,
        });
      const malformed = await post('/signup', '{"email":');
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(await malformed.json()).toMatchObject({ code: 'bad_json' });
      // The parser's message quotes the text near the fault; the answer never does.
      const quoted = await post('/token?grant_type=password', '{"email":"a@b.co","password":hunter2pw}');
      expect(quoted.status).toBe(400);
      const quotedBody = await quoted.json();
      expect(quotedBody).toMatchObject({ code: 'bad_json' });
      expect(JSON.stringify(quotedBody)).not.toContain('hunter2');
      const wrongTypes = await post('/token?grant_type=password', '{"email":42,"password":[]}');
      expect(wrongTypes.status).toBe(400);
      expect(await wrongTypes.json()).toMatchObject({ code: 'validation_failed' });
      // PostgreSQL cannot store NUL in text or jsonb: refused up front, not a 500 from the database.
      for (const [path, body] of [
        ['/signup', { email: 'a\u0000@b.co', password }],
        ['/token?grant_type=refresh_token', { refresh_token: 'ab\u0000' }],
        ['/signup', { email: 'nul@example.com', password, data: { 'x\u0000': 'y' } }],
      ] as const) {
        const nul = await post(path, JSON.stringify(body));
        expect(nul.status).toBe(400);
        expect(await nul.json()).toMatchObject({ code: 'validation_failed' });
      }
      const grant = await post('/token?grant_type=magic', '{}');
      expect(grant.status).toBe(400);
      expect(await grant.json()).toMatchObject({ code: 'invalid_credentials' });
      const emptyRefresh = await post('/token?grant_type=refresh_token', '{"refresh_token":""}');
      expect(await emptyRefresh.json()).toMatchObject({ error: 'invalid_request' });
      const oldShape = await post('/token?grant_type=password', '{"email":"x@y.io","password":"nope12"}', {
        'X-Supabase-Api-Version': '',
      });
      expect(oldShape.headers.get('x-supabase-api-version')).toBeNull();
      expect(await oldShape.json()).toEqual({
        code: 400,
        error_code: 'invalid_credentials',
        msg: 'Invalid login credentials',
      });
      const noKey = await fetch(`${srv.url}/auth/v1/settings`);
      expect(noKey.status).toBe(401);
      const settings = await fetch(`${srv.url}/auth/v1/settings`, { headers: { apikey: srv.anonKey } });
      expect(await settings.json()).toMatchObject({ external: { email: true }, mailer_autoconfirm: false });

      const { session } = await confirmedUser();
      const token = session?.access_token as string;
      const [head, body] = token.split('.');
      const claims = JSON.parse(Buffer.from(body as string, 'base64url').toString());
      const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, app_metadata: { role: 'admin' } })).toString('base64url')}.${token.split('.')[2]}`;
      const tampered = await srv.client().auth.getUser(forged);
      expect(tampered.error).toMatchObject({ status: 403, code: 'bad_jwt' });
      expect(await srv.verifyAccessToken(forged)).toBeNull();
      const noBearer = await fetch(`${srv.url}/auth/v1/user`, {
        headers: { apikey: srv.anonKey, 'X-Supabase-Api-Version': '2024-01-01' },
      });
      expect(noBearer.status).toBe(401);
      expect(await noBearer.json()).toMatchObject({ code: 'no_authorization' });
      const userBody = await (
        await fetch(`${srv.url}/auth/v1/user`, {
          headers: { apikey: srv.anonKey, Authorization: `Bearer ${token}` },
        })
      ).text();
      expect(userBody).not.toMatch(/argon2|encrypted_password/);
      const jwks = await fetch(`${srv.url}/auth/v1/.well-known/jwks.json`);
      expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
      const jwk = (await jwks.json()).keys[0];
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
      // Access tokens: ES256 with the published kid, valid 3600 s, tied to a session (AUTH-CONTRACT §1.3).
      expect(JSON.parse(Buffer.from(head as string, 'base64url').toString())).toMatchObject({
        alg: 'ES256',
        kid: jwk.kid,
      });
      expect(claims.exp - claims.iat).toBe(3600);
      expect(claims.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(claims).toMatchObject({ aud: 'authenticated', role: 'authenticated', is_anonymous: false });
      const health = await fetch(`${srv.url}/auth/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ name: 'GoTrue' });
      const cors = await fetch(`${srv.url}/auth/v1/token`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://elsewhere.test',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'apikey,x-supabase-api-version',
        },
      });
      expect(cors.headers.get('access-control-allow-headers')).toContain('x-supabase-api-version');
      expect(isAuthApiError(tampered.error)).toBe(true);
      // Last: the server stops reading an oversized body, which ends that connection.
      const big = await post(
        '/signup',
        JSON.stringify({ email: 'a@b.co', password, data: { x: 'y'.repeat(1_100_000) } }),
      );
      expect(big.status).toBe(413);
    });
  });
}

describe('embedded auth rate limits over HTTP', () => {
  it('answers 429 over_request_rate_limit once the per-IP token bucket is empty', async () => {
    const target = testDbTargets()[0];
    const db = await target!.open(serverMigrations());
    const srv = await startAuthTestServer(db, {
      rateLimits: { token: { burst: 3, perWindow: 3, windowMs: 300_000 } },
    });
    try {
      const client = srv.client();
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 4; i++) {
        const { error } = await client.auth.signInWithPassword({ email: `nobody${i}@example.com`, password });
        codes.push(error?.code);
      }
      expect(codes).toEqual([
        'invalid_credentials',
        'invalid_credentials',
        'invalid_credentials',
        'over_request_rate_limit',
      ]);
      const { error } = await client.auth.signInWithPassword({ email: 'x@example.com', password });
      expect(error).toMatchObject({ status: 429, message: 'Request rate limit reached' });
    } finally {
      await srv.close();
      await db.close();
    }
  });
});

/** A request over a real socket, so Host and X-Forwarded-* reach the server as an attacker sends them. */
function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; json: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: text ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;

for (const target of testDbTargets()) {
  describe(`embedded auth hardening (issue 12) on ${target.name}`, () => {
    let db: Db;
    let srv: AuthTestServer;
    const evil = {
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
      Forwarded: 'host=evil.example;proto=https',
    };

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db);
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    async function signedIn(email = newEmail()) {
      await createUser(db, { email, password, emailConfirm: true });
      const client = srv.client();
      const { data, error } = await client.auth.signInWithPassword({ email, password });
      expect(error).toBeNull();
      return { client, email, token: data.session?.access_token as string };
    }

    it('mails reset and confirmation links to the listen address, whatever Host and X-Forwarded-* say', async () => {
      expect(srv.origin).toMatch(/^http:\/\/localhost:\d+$/);
      const email = newEmail();
      await createUser(db, { email, password, emailConfirm: true });
      const recover = await rawRequest(
        srv.url,
        'POST',
        '/auth/v1/recover',
        { ...evil, apikey: srv.anonKey },
        {
          email,
        },
      );
      expect(recover.status).toBe(200);
      const reset = await srv.lastMail(email);
      expect(reset?.kind).toBe('recovery');
      expect(reset?.link?.startsWith(`${srv.origin}/auth/v1/verify?token=`)).toBe(true);
      expect(reset?.text).not.toContain('evil.example');

      const fresh = newEmail();
      const signup = await rawRequest(
        srv.url,
        'POST',
        '/auth/v1/signup',
        { ...evil, apikey: srv.anonKey },
        {
          email: fresh,
          password,
        },
      );
      expect(signup.status).toBe(200);
      const confirm = await srv.lastMail(fresh);
      expect(confirm?.link?.startsWith(`${srv.origin}/auth/v1/verify?token=`)).toBe(true);
      expect(confirm?.text).not.toContain('evil.example');

      // The link sends the browser back to this site (loopback names of the same listener count as it).
      const res = await fetch(confirm?.link as string, { redirect: 'manual' });
      expect(new URL(res.headers.get('location') as string).origin).toBe(srv.origin);
    });

    it('names the configured host, not the request’s, as the TOTP issuer', async () => {
      const { token } = await signedIn();
      const enrolled = await rawRequest(
        srv.url,
        'POST',
        '/auth/v1/factors',
        { ...evil, apikey: srv.anonKey, Authorization: `Bearer ${token}` },
        { factor_type: 'totp', friendly_name: 'app' },
      );
      expect(enrolled.status).toBe(200);
      const uri = new URL((enrolled.json as { totp: { uri: string } }).totp.uri);
      expect(uri.searchParams.get('issuer')).toBe(new URL(srv.origin).host);
    });

    it('puts iss = <origin>/auth/v1 in every access token and refuses a token from another issuer', async () => {
      const { client, token } = await signedIn();
      expect(claimsOf(token).iss).toBe(`${srv.origin}/auth/v1`);
      const refreshed = await client.auth.refreshSession();
      expect(claimsOf(refreshed.data.session?.access_token as string).iss).toBe(`${srv.origin}/auth/v1`);

      const claims = claimsOf(token);
      const foreign = await signAccessToken(srv.service.keys, {
        userId: claims.sub as string,
        email: claims.email as string,
        appMetadata: {},
        userMetadata: {},
        sessionId: claims.session_id as string,
        aal: 'aal1',
        amr: [],
        isAnonymous: false,
        issuer: 'https://evil.example/auth/v1',
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      const refused = await srv.client().auth.getUser(foreign);
      expect(refused.error).toMatchObject({ status: 403, code: 'bad_jwt' });
      expect(await srv.verifyAccessToken(foreign)).toBeNull();
    });

    it('with PUBLIC_URL set, uses it for links and iss', async () => {
      const other = await startAuthTestServer(db, { env: { PUBLIC_URL: 'https://engage.example/base/' } });
      try {
        expect(other.origin).toBe('https://engage.example/base');
        const email = newEmail();
        await createUser(db, { email, password, emailConfirm: true });
        await rawRequest(
          other.url,
          'POST',
          '/auth/v1/recover',
          { ...evil, apikey: other.anonKey },
          { email },
        );
        const link = (await other.lastMail(email))?.link as string;
        expect(link.startsWith('https://engage.example/base/auth/v1/verify?token=')).toBe(true);
        const { data } = await other.client().auth.signInWithPassword({ email, password });
        expect(claimsOf(data.session?.access_token as string).iss).toBe(
          'https://engage.example/base/auth/v1',
        );
      } finally {
        await other.close();
      }
    });

    it('marks every response carrying account data or tokens Cache-Control: no-store', async () => {
      const { client, email, token } = await signedIn();
      const api = (method: string, path: string, bearer = token, body?: unknown) =>
        rawRequest(
          srv.url,
          method,
          `/auth/v1${path}`,
          { apikey: srv.anonKey, Authorization: `Bearer ${bearer}` },
          body,
        );
      const responses = {
        token: await rawRequest(
          srv.url,
          'POST',
          '/auth/v1/token?grant_type=password',
          { apikey: srv.anonKey },
          {
            email,
            password,
          },
        ),
        badToken: await rawRequest(
          srv.url,
          'POST',
          '/auth/v1/token?grant_type=password',
          { apikey: srv.anonKey },
          {
            email,
            password: 'wrong password',
          },
        ),
        signup: await rawRequest(
          srv.url,
          'POST',
          '/auth/v1/signup',
          { apikey: srv.anonKey },
          {
            email: newEmail(),
            password,
          },
        ),
        getUser: await api('GET', '/user'),
        putUser: await api('PUT', '/user', token, { data: { theme: 'dark' } }),
        verify: await api('POST', '/verify', token, { type: 'signup', token_hash: 'nope' }),
        factors: await api('POST', '/factors', token, { factor_type: 'totp', friendly_name: 'x' }),
        adminList: await api('GET', '/admin/users', srv.serviceRoleKey),
        adminOne: await api('GET', `/admin/users/${claimsOf(token).sub as string}`, srv.serviceRoleKey),
        logout: await api('POST', '/logout?scope=local'),
      };
      for (const [name, res] of Object.entries(responses))
        expect([name, res.headers['cache-control']]).toEqual([name, 'no-store']);
      const jwks = await rawRequest(srv.url, 'GET', '/auth/v1/.well-known/jwks.json', {});
      expect(jwks.headers['cache-control']).toBe('public, max-age=600');
      await client.auth.signOut();
    });

    describe('GoTrue’s email format rule', () => {
      const malformed = 'xx:;x@x.x';
      const invalid = {
        status: 400,
        code: 'validation_failed',
        message: 'Unable to validate email address: invalid format',
      };

      it('refuses a malformed address on sign-up and recover', async () => {
        const signup = await srv.client().auth.signUp({ email: malformed, password });
        expect(signup.error).toMatchObject(invalid);
        const recover = await srv.client().auth.resetPasswordForEmail(malformed);
        expect(recover.error).toMatchObject(invalid);
        for (const email of ['a@x_y.io', 'a b@x.io', 'a@-x.io', `${'a'.repeat(251)}@x.io`]) {
          const res = await srv.client().auth.signUp({ email, password });
          expect([email, res.error?.code]).toEqual([email, 'validation_failed']);
        }
        // Addresses GoTrue accepts still work.
        const odd = `o'neil+tag.${n++}@sub-domain.example.co`;
        expect((await srv.client().auth.signUp({ email: odd, password })).error).toBeNull();
      });

      it('refuses a malformed address on admin create and update, through the API and createUser', async () => {
        const admin = srv.client('service').auth.admin;
        const created = await admin.createUser({ email: malformed, password });
        expect(created.error).toMatchObject(invalid);
        await expect(createUser(db, { email: malformed, password })).rejects.toMatchObject({
          status: 400,
          code: 'validation_failed',
          message: invalid.message,
        });
        const ok = await admin.createUser({ email: newEmail(), password });
        expect(ok.error).toBeNull();
        const updated = await admin.updateUserById(ok.data.user?.id as string, { email: malformed });
        expect(updated.error).toMatchObject(invalid);
      });
    });

    it('answers anonymous sign-in with 422 anonymous_provider_disabled', async () => {
      const { error } = await srv.client().auth.signInAnonymously();
      expect(error).toMatchObject({
        status: 422,
        code: 'anonymous_provider_disabled',
        message: 'Anonymous sign-ins are disabled',
      });
      for (const body of [{}, { data: {} }, { data: null, gotrue_meta_security: {} }]) {
        const res = await rawRequest(srv.url, 'POST', '/auth/v1/signup', { apikey: srv.anonKey }, body);
        expect(res.status).toBe(422);
        expect(res.json).toMatchObject({ error_code: 'anonymous_provider_disabled' });
      }
      // A password without an email is still a validation error, not an anonymous sign-in.
      const noEmail = await rawRequest(
        srv.url,
        'POST',
        '/auth/v1/signup',
        { apikey: srv.anonKey },
        { password },
      );
      expect(noEmail.status).toBe(400);
    });
  });
}
