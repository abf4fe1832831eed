// The apikey rule of a Supabase project's gateway, and
// GoTrue's answers for reauthenticate(), unlinkIdentity() and a phone verifyOtp(). On PGlite and
// (with TEST_DATABASE_URL) PostgreSQL. OAuth client administration is in auth/http/oauth-clients.test.ts.
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { authServerContext } from './auth-harness.js';

for (const target of testDbTargets()) {
  describe(`the auth routes through supabase-js on ${target.name}`, () => {
    const { srv, signedIn } = authServerContext(target);

    describe('the apikey rule', () => {
      const bare = (path: string, init: RequestInit = {}) =>
        fetch(`${srv.url}/auth/v1${path}`, { redirect: 'manual', ...init });

      it('lets the gateway\u2019s open routes through without an apikey', async () => {
        const verifyPost = await bare('/verify', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'email', email: 'nobody@example.com', token: '123456' }),
        });
        expect(verifyPost.status).toBe(403);
        expect(((await verifyPost.json()) as { error_code: string }).error_code).toBe('otp_expired');
        expect((await bare('/verify?token=x&type=signup')).status).toBe(303);
        const authorize = await bare('/authorize?provider=github');
        expect(authorize.status).toBe(400);
        expect(((await authorize.json()) as { msg: string }).msg).toBe(
          'Unsupported provider: provider is not enabled',
        );
        expect((await bare('/callback')).status).toBe(404);
        expect((await bare('/.well-known/jwks.json')).status).toBe(200);
      });

      it('takes a request without an apikey as GoTrue does: its Bearer decides', async () => {
        const email = `no-apikey-${Date.now()}@example.com`;
        const signup = await bare('/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'a-long-password-1' }),
        });
        expect(signup.status).toBe(200);
        const { client } = await signedIn();
        const { data } = await client.auth.getSession();
        const token = data.session?.access_token as string;
        const update = await bare('/user', {
          method: 'PUT',
          headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ data: { color: 'blue' } }),
        });
        expect(update.status).toBe(200);
        expect(((await update.json()) as { user_metadata: object }).user_metadata).toMatchObject({
          color: 'blue',
        });
        // No Bearer, or a user's, still opens no admin route; the service key's does, as in GoTrue.
        expect((await bare('/user')).status).toBe(401);
        const asUser = await bare('/admin/users', { headers: { Authorization: `Bearer ${token}` } });
        expect(asUser.status).toBe(403);
        const asService = await bare('/admin/users', {
          headers: { Authorization: `Bearer ${srv.serviceRoleKey}` },
        });
        expect(asService.status).toBe(200);
      });

      it('refuses a wrong apikey with 401 on every route but the open ones, path tricks included', async () => {
        for (const [path, method] of [
          ['/user', 'GET'],
          ['/signup', 'POST'],
          ['/token?grant_type=password', 'POST'],
          ['/settings', 'GET'],
          ['/admin/users', 'GET'],
          ['/admin/oauth/clients', 'GET'],
          ['/verify%2F..%2Fadmin%2Fusers', 'GET'],
          ['/verifyx', 'GET'],
          ['/authorize/../admin/users', 'GET'],
        ] as const) {
          const res = await bare(path, {
            method,
            headers: { apikey: 'not-our-key', Authorization: `Bearer ${srv.serviceRoleKey}` },
          });
          expect([path, res.status]).toEqual([path, 401]);
          expect(await res.json()).toMatchObject({ msg: 'Invalid API key' });
        }
      });
    });

    describe('GoTrue\u2019s answers', () => {
      it('reauthenticate() mails a nonce and returns neither user nor session', async () => {
        const { client, email } = await signedIn();
        const { data, error } = await client.auth.reauthenticate();
        expect(error).toBeNull();
        expect(data).toEqual({ user: null, session: null });
        const mail = await srv.lastMail(email);
        expect(mail?.kind).toBe('reauthentication');
        expect(mail?.code).toMatch(/^\d{6}$/);
      });

      it('unlinkIdentity() and linkIdentity(): "Manual linking is disabled" once signed in', async () => {
        const { client, token } = await signedIn();
        const { data } = await client.auth.getUserIdentities();
        const identity = data?.identities[0];
        expect(identity?.provider).toBe('email');
        const unlink = await client.auth.unlinkIdentity(identity as NonNullable<typeof identity>);
        expect(unlink.error).toMatchObject({ status: 404, code: 'manual_linking_disabled' });
        expect(unlink.error?.message).toBe('Manual linking is disabled');
        const noSession = await fetch(`${srv.url}/auth/v1/user/identities/${identity?.identity_id}`, {
          method: 'DELETE',
          headers: { apikey: srv.anonKey },
        });
        expect(noSession.status).toBe(401);
        // The identity is still there.
        const after = await client.auth.getUserIdentities();
        expect(after.data?.identities).toHaveLength(1);
        expect(token).toBeTruthy();
      });

      it('verifyOtp() for a phone, with empty options: "Token has expired or is invalid"', async () => {
        const { error } = await srv.client().auth.verifyOtp({
          phone: '+15555550123',
          type: 'phone_change',
          token: '123456',
          options: {},
        });
        expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
        expect(error?.message).toBe('Token has expired or is invalid');
      });

      it('verifyOtp() for a malformed phone: GoTrue\u2019s E.164 rule first', async () => {
        for (const phone of ['+15555550123-invalid', '0123', '+1', '12345678901234567']) {
          const { error } = await srv.client().auth.verifyOtp({ phone, type: 'sms', token: '123456' });
          expect([phone, error?.status, error?.message]).toEqual([
            phone,
            400,
            'Invalid phone number format (E.164 required)',
          ]);
        }
      });
    });
  });
}
