// Magic links and codes (/otp), invites, the "disabled"
// answers and /settings, on PGlite and (with TEST_DATABASE_URL) PostgreSQL. generate_link, bans and
// the admin API's functions are in auth/http/links-admin.test.ts.
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { authServerContext, followMailLink as follow, newEmail, password } from './auth-harness.js';

for (const target of testDbTargets()) {
  describe(`mail links and invites with supabase-js on ${target.name}`, () => {
    const { srv, createdUser: confirmed } = authServerContext(target);

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
  });
}
