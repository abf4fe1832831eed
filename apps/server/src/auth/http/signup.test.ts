// Embedded auth through supabase-js: sign-up, confirmation links and codes, resends.
import { testDbTargets } from '@engage/db/testing';
import { isAuthWeakPasswordError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { authServerContext, newEmail, password } from './auth-harness.js';

for (const target of testDbTargets()) {
  describe(`embedded auth with the official supabase-js on ${target.name}`, () => {
    const { srv, db, confirmedUser, createdUser } = authServerContext(target, {
      env: { AUTH_REFRESH_REUSE_INTERVAL: '0' },
    });

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

    it('answers a sign-up for a confirmed address with a look-alike user, and mails its owner what happened', async () => {
      const { email } = await createdUser();
      const before = await srv.mailCount(email);
      const { data, error } = await srv.client().auth.signUp({ email, password: 'another password' });
      expect(error).toBeNull();
      expect(data.user?.identities).toEqual([]);
      expect(data.session).toBeNull();
      // One mail, and no confirmation link in it: it says to sign in or reset the password.
      expect(await srv.mailCount(email)).toBe(before + 1);
      const { rows } = await db.query<{ kind: string; subject: string; text_body: string }>(
        'select kind, subject, text_body from mail_outbox where to_address = $1 order by created_at desc limit 1',
        [email],
      );
      expect(rows[0]).toMatchObject({ kind: 'existing_account', subject: 'You already have an account' });
      expect(rows[0]?.text_body).toMatch(/Sign in with your password instead/);
      expect(rows[0]?.text_body).not.toMatch(/\/verify\?/);
    });

    it('refuses weak passwords with the reasons', async () => {
      const { error } = await srv.client().auth.signUp({ email: newEmail(), password: '12345' });
      expect(isAuthWeakPasswordError(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
      // The most common passwords are GoTrue's weak_password with the `pwned` reason.
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
  });
}
