// Embedded auth through supabase-js: sign-in, refresh, logout, recovery and PKCE.
import { testDbTargets } from '@engage/db/testing';
import { isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { authServerContext, newEmail, password } from './auth-harness.js';

for (const target of testDbTargets()) {
  describe(`embedded auth with the official supabase-js on ${target.name}`, () => {
    const { srv, confirmedUser } = authServerContext(target, { env: { AUTH_REFRESH_REUSE_INTERVAL: '0' } });

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
  });
}
