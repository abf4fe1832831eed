// Embedded auth through supabase-js: user administration, TOTP, the outbox lock, hosted-mode tokens.
import { testDbTargets } from '@engage/db/testing';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createVerifyAccessToken } from '../verify-access-token.js';
import { authServerContext, newEmail, password } from './auth-harness.js';

for (const target of testDbTargets()) {
  describe(`embedded auth with the official supabase-js on ${target.name}`, () => {
    const { srv, confirmedUser } = authServerContext(target, { env: { AUTH_REFRESH_REUSE_INTERVAL: '0' } });

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

    it('locks the outbox at /_mail without its token (auth/outbox/routes.test.ts opens it with one)', async () => {
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
  });
}
