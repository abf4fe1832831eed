// Generate_link, bans and the admin API's functions
// (invite, recovery, magic link, sign-out everywhere, ban), on PGlite and (with TEST_DATABASE_URL)
// PostgreSQL. Magic links, invites and /settings are in auth/http/links.test.ts.
import { testDbTargets } from '@engage/db/testing';
import { isAuthSessionMissingError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { authServerContext, followMailLink as follow, newEmail, password } from './auth-harness.js';

for (const target of testDbTargets()) {
  describe(`generated links, bans and the admin API with supabase-js on ${target.name}`, () => {
    const { srv, createdUser: confirmed } = authServerContext(target);

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
