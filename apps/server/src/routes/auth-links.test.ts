// Issue 14 through the official client: magic links and codes (/otp), invites, generate_link,
// bans, the "disabled" answers and /settings, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { isAuthSessionMissingError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../auth/admin-users.js';
import { serverMigrations } from '../db/migrations/index.js';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';
import { startAuthTestServer, type AuthTestServer } from './auth-test-server.js';

const password = 'correct horse 1';
let n = 0;
const newEmail = () => `links${Date.now()}-${n++}@example.com`;

for (const target of testDbTargets()) {
  describe(`mail links, invites and bans with supabase-js on ${target.name}`, () => {
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

    const confirmed = async (email = newEmail()) => {
      const user = await createUser(db, { email, password, emailConfirm: true });
      return { email, id: user.id };
    };
    /** Follows a mail link like a browser: the 303 target's fragment as parameters. */
    const follow = async (link: string) => {
      const res = await fetch(link, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location') as string);
      return { location, params: new URLSearchParams(location.hash.slice(1)) };
    };

    it('/settings says email only, no autoconfirm, and every other provider off', async () => {
      const settings = (await (
        await fetch(`${srv.url}/auth/v1/settings`, {
          headers: { apikey: srv.anonKey },
        })
      ).json()) as Record<string, unknown> & { external: Record<string, boolean> };
      expect(settings).toMatchObject({
        mailer_autoconfirm: false,
        saml_enabled: false,
        disable_signup: false,
      });
      expect(settings.external).toMatchObject({
        email: true,
        phone: false,
        anonymous_users: false,
        saml: false,
      });
      expect(settings.external.web3_solana).toBe(false);
    });

    it('answers GoTrue\u2019s "disabled" codes for SSO, linking, web3, id_token, phone and anonymous', async () => {
      const client = srv.client();
      const sso = await client.auth.signInWithSSO({ domain: 'example.com' });
      expect(sso.error).toMatchObject({ status: 404, code: 'saml_provider_disabled' });
      const idToken = await client.auth.signInWithIdToken({ provider: 'google', token: 'x.y.z' });
      expect(idToken.error).toMatchObject({ status: 400, code: 'provider_disabled' });
      const phoneOtp = await client.auth.signInWithOtp({ phone: '+15555550100' });
      expect(phoneOtp.error).toMatchObject({ status: 422, code: 'phone_provider_disabled' });
      const phoneSignup = await client.auth.signUp({ phone: '+15555550100', password });
      expect(phoneSignup.error).toMatchObject({ status: 422, code: 'phone_provider_disabled' });
      const anonymous = await client.auth.signInAnonymously();
      expect(anonymous.error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' });
      const web3 = await fetch(`${srv.url}/auth/v1/token?grant_type=web3`, {
        method: 'POST',
        headers: {
          apikey: srv.anonKey,
          'content-type': 'application/json',
          'x-supabase-api-version': '2024-01-01',
        },
        body: JSON.stringify({ chain: 'solana', message: 'm', signature: 's' }),
      });
      expect(web3.status).toBe(422);
      expect(await web3.json()).toMatchObject({ code: 'web3_provider_disabled' });

      const { email } = await confirmed();
      await client.auth.signInWithPassword({ email, password });
      const link = await client.auth.linkIdentity({
        provider: 'github',
        options: { skipBrowserRedirect: true },
      });
      expect(link.error).toMatchObject({ status: 404, code: 'manual_linking_disabled' });
    });

    it('mails one magic link with a code; the code signs in once, the link through GET /verify', async () => {
      const { email } = await confirmed();
      const client = srv.client();
      const sent = await client.auth.signInWithOtp({
        email,
        options: { emailRedirectTo: `${srv.url}/voice` },
      });
      expect(sent).toMatchObject({ data: { user: null, session: null }, error: null });
      expect(await srv.mailCount(email)).toBe(1);
      const mail = await srv.lastMail(email);
      expect(mail).toMatchObject({ kind: 'magic_link', code: expect.stringMatching(/^\d{6}$/) });
      const link = new URL(mail?.link as string);
      expect(link.origin).toBe(srv.origin);
      expect(link.searchParams.get('type')).toBe('magiclink');

      const verified = await client.auth.verifyOtp({ email, token: mail?.code as string, type: 'email' });
      expect(verified.error).toBeNull();
      expect(verified.data.session?.user.email).toBe(email);
      // The code and its link are one token: both are used up now.
      const again = await srv.client().auth.verifyOtp({ email, token: mail?.code as string, type: 'email' });
      expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
      const used = await follow(mail?.link as string);
      expect(used.params.get('error_code')).toBe('otp_expired');

      await client.auth.signInWithOtp({ email, options: { emailRedirectTo: `${srv.url}/voice` } });
      const second = await srv.lastMail(email);
      const { location, params } = await follow(second?.link as string);
      expect(`${location.origin}${location.pathname}`).toBe(`${srv.url}/voice`);
      expect(params.get('type')).toBe('magiclink');
      const { data } = await srv.client().auth.getUser(params.get('access_token') as string);
      expect(data.user?.email).toBe(email);
    });

    it('signs an unknown address up through /otp, unless create_user is false (422 otp_disabled)', async () => {
      const refused = newEmail();
      const no = await srv
        .client()
        .auth.signInWithOtp({ email: refused, options: { shouldCreateUser: false } });
      expect(no.error).toMatchObject({
        status: 422,
        code: 'otp_disabled',
        message: 'Signups not allowed for otp',
      });
      expect(await srv.mailCount(refused)).toBe(0);

      const email = newEmail();
      const yes = await srv.client().auth.signInWithOtp({ email });
      expect(yes.error).toBeNull();
      const mail = await srv.lastMail(email);
      expect(mail?.kind).toBe('confirmation');
      const token = new URL(mail?.link as string).searchParams.get('token') as string;
      const verified = await srv.client().auth.verifyOtp({ token_hash: token, type: 'email' });
      expect(verified.error).toBeNull();
      expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    });

    it('invites a user (service role only); the link signs in and a password can then be set', async () => {
      const email = newEmail();
      const forbidden = await srv.client().auth.admin.inviteUserByEmail(email);
      expect(forbidden.error?.status).toBe(403);
      const admin = srv.client('service').auth.admin;
      const { data, error } = await admin.inviteUserByEmail(email, {
        redirectTo: `${srv.url}/welcome`,
        data: { team: 'sales' },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        email,
        user_metadata: { team: 'sales' },
        invited_at: expect.any(String),
      });
      expect(data.user?.email_confirmed_at).toBeUndefined();
      const mail = await srv.lastMail(email);
      expect(mail?.kind).toBe('invite');
      const { location, params } = await follow(mail?.link as string);
      expect(location.pathname).toBe('/welcome');
      expect(params.get('type')).toBe('invite');

      const client = srv.client();
      await client.auth.setSession({
        access_token: params.get('access_token') as string,
        refresh_token: params.get('refresh_token') as string,
      });
      expect((await client.auth.updateUser({ password })).error).toBeNull();
      expect((await srv.client().auth.signInWithPassword({ email, password })).error).toBeNull();
      const twice = await admin.inviteUserByEmail(email);
      expect(twice.error).toMatchObject({ status: 422, code: 'email_exists' });
    });

    it('generate_link answers every type with its properties, sends no mail, and each link verifies', async () => {
      const admin = srv.client('service').auth.admin;
      const { email } = await confirmed();
      for (const type of ['magiclink', 'recovery'] as const) {
        const { data, error } = await admin.generateLink({
          type,
          email,
          options: { redirectTo: `${srv.origin}/x` },
        });
        expect(error).toBeNull();
        expect(data.user?.email).toBe(email);
        expect(data.properties).toMatchObject({
          email_otp: expect.stringMatching(/^\d{6}$/),
          hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
          redirect_to: `${srv.origin}/x`,
          verification_type: type,
        });
        expect(data.properties?.action_link.startsWith(`${srv.origin}/auth/v1/verify?token=`)).toBe(true);
        const verified = await srv
          .client()
          .auth.verifyOtp({ token_hash: data.properties?.hashed_token as string, type });
        expect(verified.error).toBeNull();
      }
      expect(await srv.mailCount(email)).toBe(0);

      const fresh = newEmail();
      const signup = await admin.generateLink({ type: 'signup', email: fresh, password });
      expect(signup.data.properties?.verification_type).toBe('signup');
      const { params } = await follow(signup.data.properties?.action_link as string);
      expect(params.get('type')).toBe('signup');
      const invite = await admin.generateLink({ type: 'invite', email: newEmail() });
      expect(invite.data.properties?.verification_type).toBe('invite');
      const taken = await admin.generateLink({ type: 'invite', email });
      expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
      const unknown = await admin.generateLink({ type: 'recovery', email: newEmail() });
      expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });

      // Both halves of an email change, confirmed in turn, move the account.
      const moved = newEmail();
      const current = await admin.generateLink({ type: 'email_change_current', email, newEmail: moved });
      expect(current.data.properties?.verification_type).toBe('email_change');
      expect(current.data.user?.new_email).toBe(moved);
      const next = await admin.generateLink({ type: 'email_change_new', email, newEmail: moved });
      const first = await srv.client().auth.verifyOtp({
        token_hash: current.data.properties?.hashed_token as string,
        type: 'email_change',
      });
      expect(first).toMatchObject({ data: { user: null, session: null }, error: null });
      const second = await srv.client().auth.verifyOtp({
        email: moved,
        token: next.data.properties?.email_otp as string,
        type: 'email_change',
      });
      expect(second.error).toBeNull();
      expect(second.data.user?.email).toBe(moved);
    });

    it('bans with a Go duration: password, refresh and link sign-in refused, "none" lifts it', async () => {
      const { email, id } = await confirmed();
      const client = srv.client();
      const { data: signedIn } = await client.auth.signInWithPassword({ email, password });
      const admin = srv.client('service').auth.admin;
      const bad = await admin.updateUserById(id, { ban_duration: 'a day' });
      expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' });
      // Past Go's longest duration (GoTrue's limit too): 400 naming it, not 500 "Invalid time value".
      const tooLong = await admin.updateUserById(id, { ban_duration: '99999999999h' });
      expect(tooLong.error).toMatchObject({ status: 400, code: 'validation_failed' });
      expect(tooLong.error?.message).toMatch(/at most 2562047h/);
      const fresh = newEmail();
      const created = await admin.createUser({ email: fresh, ban_duration: '2562048h' });
      expect(created.error).toMatchObject({ status: 400, code: 'validation_failed' });
      expect((await admin.createUser({ email: fresh })).error).toBeNull(); // nothing half-made
      const before = Date.now();
      const { data, error } = await admin.updateUserById(id, { ban_duration: '24h' });
      expect(error).toBeNull();
      const until = Date.parse(data.user?.banned_until as string);
      expect(until).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
      expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);

      const byPassword = await srv.client().auth.signInWithPassword({ email, password });
      expect(byPassword.error).toMatchObject({ status: 400, code: 'user_banned' });
      const refreshed = await client.auth.refreshSession({
        refresh_token: signedIn.session?.refresh_token as string,
      });
      expect(refreshed.error).toMatchObject({ status: 400, code: 'user_banned' });
      await srv.client().auth.signInWithOtp({ email });
      const code = (await srv.lastMail(email))?.code as string;
      const byCode = await srv.client().auth.verifyOtp({ email, token: code, type: 'email' });
      expect(byCode.error).toMatchObject({ status: 403, code: 'user_banned' });

      const lifted = await admin.updateUserById(id, { ban_duration: 'none' });
      expect(lifted.data.user?.banned_until).toBeUndefined();
      expect((await srv.client().auth.signInWithPassword({ email, password })).error).toBeNull();
    });

    it('gives the admin API its functions: invite, recovery, magic link, sign-out everywhere, ban', async () => {
      const admin = srv.service.admin;
      const invitedEmail = newEmail();
      const invited = await admin.inviteUser(invitedEmail);
      expect(invited).toMatchObject({ email: invitedEmail, invited_at: expect.any(String) });
      expect((await srv.lastMail(invitedEmail))?.kind).toBe('invite');

      const { email, id } = await confirmed();
      await admin.sendRecovery(id);
      expect((await srv.lastMail(email))?.kind).toBe('recovery');
      await admin.sendMagicLink(id);
      expect((await srv.lastMail(email))?.kind).toBe('magic_link');
      await expect(admin.sendRecovery('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
        status: 404,
        code: 'user_not_found',
      });

      const a = srv.client();
      const b = srv.client();
      const sa = (await a.auth.signInWithPassword({ email, password })).data.session;
      await b.auth.signInWithPassword({ email, password });
      await admin.signOutEverywhere(id);
      // session_not_found: supabase-js reports it as AuthSessionMissingError.
      expect(isAuthSessionMissingError((await a.auth.getUser()).error)).toBe(true);
      expect((await b.auth.refreshSession()).error).toMatchObject({ code: 'refresh_token_not_found' });
      const again = await srv.client().auth.refreshSession({ refresh_token: sa?.refresh_token as string });
      expect(again.error).toMatchObject({ code: 'refresh_token_not_found' });

      const c = srv.client();
      await c.auth.signInWithPassword({ email, password });
      const banned = await admin.banUser(id, '90m');
      expect(banned.banned_until).toBeTruthy();
      // Banning ends the user's sessions.
      expect(isAuthSessionMissingError((await c.auth.getUser()).error)).toBe(true);
      const refused = await srv.client().auth.signInWithPassword({ email, password });
      expect(refused.error).toMatchObject({ status: 400, code: 'user_banned' });
      await expect(admin.banUser(id, 'forever')).rejects.toMatchObject({ code: 'validation_failed' });
      expect((await admin.banUser(id, 'none')).banned_until).toBeUndefined();
      expect((await srv.client().auth.signInWithPassword({ email, password })).error).toBeNull();
    });
  });
}
