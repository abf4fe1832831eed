// Embedded auth hardening: origins, issuers, no-store, email format, anonymous sign-in.
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../tokens.js';
import { createUser } from '../user-store.js';
import { authServerContext, claimsOf, newEmail, password, rawRequest } from './auth-harness.js';
import { startAuthTestServer } from './server-harness.js';

/** Numbers the look-alike addresses of the email format test (each describe has a fresh database). */
let n = 0;

for (const target of testDbTargets()) {
  describe(`the auth routes on ${target.name}`, () => {
    const { db, srv, signedIn } = authServerContext(target);
    const evil = {
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
      Forwarded: 'host=evil.example;proto=https',
    };

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
        // The address is checked before the password's strength.
        const weak = await srv.client().auth.signUp({ email: malformed, password: 'password' });
        expect(weak.error).toMatchObject(invalid);
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
