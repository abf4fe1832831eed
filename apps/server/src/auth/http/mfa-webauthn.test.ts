// WebAuthn as an MFA factor through auth-js's `mfa` API (enroll, challenge, verify,
// unenroll), and the aal2 it yields satisfying the server's own rules (ADMIN_REQUIRE_MFA).
import { testDbTargets } from '@engage/db/testing';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { allMigrations } from '../../server.js';
import { authServerHooks } from './auth-harness.js';
import { enrollTotp, signedIn, testClock } from './mfa-harness.js';
import { softwareAuthenticator } from './software-authenticator-harness.js';

const PASSWORD = 'webauthn-mfa-pass-1';

const b64url = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes as ArrayBuffer).toString('base64url');
/** auth-js hands the options back as ArrayBuffers (for navigator.credentials); the test authenticator reads JSON. */
interface DecodedOptions {
  challenge: ArrayBuffer;
  rp?: { id?: string };
  rpId?: string;
  user?: { id: ArrayBuffer };
}
const asJson = (o: DecodedOptions) => ({
  challenge: b64url(o.challenge),
  rp: o.rp ?? {},
  rpId: o.rpId,
  user: { id: o.user ? b64url(o.user.id) : '' },
});
/** What a browser's PublicKeyCredential offers auth-js: toJSON(). */
const asCredential = <T>(json: T) => ({ ...json, toJSON: () => json }) as never;

for (const target of testDbTargets()) {
  describe(`WebAuthn MFA factors (${target.name})`, () => {
    const { db, srv: strict } = authServerHooks(target, allMigrations(), {
      env: { ADMIN_REQUIRE_MFA: 'true' },
    });

    const rp = () => ({ rpId: new URL(strict.origin).hostname, rpOrigins: [strict.origin] });

    async function enrollWebauthn(client: SupabaseClient, key = softwareAuthenticator(strict.origin)) {
      const enrolled = await client.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Security key' });
      if (enrolled.error) throw enrolled.error;
      const factorId = enrolled.data.id;
      const challenge = await client.auth.mfa.challenge({ factorId, webauthn: rp() });
      if (challenge.error) throw challenge.error;
      const data = challenge.data as {
        id: string;
        webauthn: { type: string; credential_options: { publicKey: DecodedOptions } };
      };
      expect(data.webauthn.type).toBe('create');
      const credential = key.create(asJson(data.webauthn.credential_options.publicKey));
      const verified = await client.auth.mfa.verify({
        factorId,
        challengeId: data.id,
        webauthn: { type: 'create', ...rp(), credential_response: asCredential(credential) },
      });
      if (verified.error) throw verified.error;
      return { factorId, key, session: verified.data };
    }

    async function assertWith(
      client: SupabaseClient,
      factorId: string,
      key: ReturnType<typeof softwareAuthenticator>,
    ) {
      const challenge = await client.auth.mfa.challenge({ factorId, webauthn: rp() });
      if (challenge.error) throw challenge.error;
      const data = challenge.data as {
        id: string;
        webauthn: { type: string; credential_options: { publicKey: DecodedOptions } };
      };
      expect(data.webauthn.type).toBe('request');
      const assertion = key.get(asJson(data.webauthn.credential_options.publicKey));
      return {
        assertion,
        challengeId: data.id,
        verify: (a = assertion, challengeId = data.id) =>
          client.auth.mfa.verify({
            factorId,
            challengeId,
            webauthn: { type: 'request', ...rp(), credential_response: asCredential(a) },
          }),
      };
    }

    const adminUsers = (token: string) =>
      fetch(`${strict.url}/api/admin/users`, { headers: { Authorization: `Bearer ${token}` } });

    it('enrols a security key (aal2), and a later password sign-in reaches /api/admin only after the key', async () => {
      await strict.service.admin.create({
        email: 'wa-admin@example.com',
        password: PASSWORD,
        email_confirm: true,
        app_metadata: { role: 'admin' },
      });
      const first = await signedIn(strict, 'wa-admin@example.com', PASSWORD);
      // ADMIN_REQUIRE_MFA: no factor yet, no admin.
      expect((await adminUsers(first.token)).status).toBe(403);
      const { factorId, key, session } = await enrollWebauthn(first.client);
      expect(session).toMatchObject({ access_token: expect.any(String) });
      expect((await first.client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
      expect((await first.client.auth.mfa.listFactors()).data?.webauthn).toEqual([
        expect.objectContaining({ id: factorId, factor_type: 'webauthn', status: 'verified' }),
      ]);
      expect((await adminUsers((session as { access_token: string }).access_token)).status).toBe(200);

      const later = await signedIn(strict, 'wa-admin@example.com', PASSWORD);
      expect((await adminUsers(later.token)).status).toBe(403);
      const step = await assertWith(later.client, factorId, key);
      const verified = await step.verify();
      expect(verified.error).toBeNull();
      const aal2 = (verified.data as { access_token: string }).access_token;
      expect((await adminUsers(aal2)).status).toBe(200);

      // The same assertion again: its challenge is spent.
      const replay = await step.verify();
      expect(replay.error).toMatchObject({ status: 422, code: 'webauthn_challenge_expired' });
    });

    it('refuses another authenticator, a factor credential as a passkey, and a TOTP code for a key', async () => {
      await strict.service.admin.create({
        email: 'wa-user@example.com',
        password: PASSWORD,
        email_confirm: true,
      });
      const first = await signedIn(strict, 'wa-user@example.com', PASSWORD);
      const { factorId, key } = await enrollWebauthn(first.client);

      const later = await signedIn(strict, 'wa-user@example.com', PASSWORD);
      const stranger = softwareAuthenticator(strict.origin);
      stranger.create({ challenge: 'AAAA', rp: {}, user: { id: 'x' } });
      const step = await assertWith(later.client, factorId, key);
      const signed = JSON.parse(
        Buffer.from(step.assertion.response.clientDataJSON, 'base64url').toString(),
      ) as {
        challenge: string;
      };
      const wrongKey = await step.verify(stranger.get({ challenge: signed.challenge }));
      expect(wrongKey.error).toMatchObject({ status: 422 });
      expect((await later.client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

      // A factor's credential is a second factor only: it does not sign in alone.
      const anon = strict.client();
      const options = await anon.auth.passkey.startAuthentication();
      const alone = await anon.auth.passkey.verifyAuthentication({
        challengeId: options.data!.challenge_id,
        credential: key.get(options.data!.options) as never,
      });
      expect(alone.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });

      const totp = await fetch(`${strict.url}/auth/v1/factors/${factorId}/verify`, {
        method: 'POST',
        headers: {
          apikey: strict.anonKey,
          Authorization: `Bearer ${later.token}`,
          'Content-Type': 'application/json',
          'X-Supabase-Api-Version': '2024-01-01',
        },
        body: JSON.stringify({ challenge_id: step.challengeId, code: '123456' }),
      });
      expect(totp.status).toBe(400);

      // Another relying party named by the client is refused, not obeyed.
      const elsewhere = await later.client.auth.mfa.challenge({
        factorId,
        webauthn: { rpId: 'evil.example', rpOrigins: ['https://evil.example'] },
      });
      expect(elsewhere.error).toMatchObject({ status: 400, code: 'validation_failed' });

      // Unenrolling the verified key needs aal2; afterwards the user has no factor.
      expect((await later.client.auth.mfa.unenroll({ factorId })).error).toMatchObject({
        code: 'insufficient_aal',
      });
      const ok = await (await assertWith(later.client, factorId, key)).verify();
      expect(ok.error).toBeNull();
      expect((await later.client.auth.mfa.unenroll({ factorId })).error).toBeNull();
      expect(
        (await db.query('select 1 from auth_webauthn_credentials where factor_id = $1', [factorId])).rows,
      ).toEqual([]);
    });
  });
}

for (const target of testDbTargets()) {
  describe(`A factor planted before MFA (${target.name})`, () => {
    const { db, srv: strict } = authServerHooks(target, allMigrations(), {
      env: { ADMIN_REQUIRE_MFA: 'true' },
    });

    const rp = () => ({ rpId: new URL(strict.origin).hostname, rpOrigins: [strict.origin] });
    const adminUsers = (token: string) =>
      fetch(`${strict.url}/api/admin/users`, { headers: { Authorization: `Bearer ${token}` } });
    const createAdmin = (email: string) =>
      strict.service.admin.create({
        email,
        password: PASSWORD,
        email_confirm: true,
        app_metadata: { role: 'admin' },
      });
    const factorExists = async (id: string) =>
      (await db.query('select 1 from auth_factors where id = $1', [id])).rows.length === 1;

    /** The attacker's own key registered on the planted factor: the aal2 session, or the error. */
    async function registerOwnKey(client: SupabaseClient, factorId: string) {
      const challenge = await client.auth.mfa.challenge({ factorId, webauthn: rp() });
      if (challenge.error) return { error: challenge.error };
      const data = challenge.data as {
        id: string;
        webauthn: { credential_options: { publicKey: DecodedOptions } };
      };
      const key = softwareAuthenticator(strict.origin);
      const credential = key.create(asJson(data.webauthn.credential_options.publicKey));
      return client.auth.mfa.verify({
        factorId,
        challengeId: data.id,
        webauthn: { type: 'create', ...rp(), credential_response: asCredential(credential) },
      });
    }

    it('a security key planted with the password is gone once the owner turns on TOTP', async () => {
      await createAdmin('planted-key@example.com');
      const attacker = await signedIn(strict, 'planted-key@example.com', PASSWORD);
      const planted = await attacker.client.auth.mfa.enroll({ factorType: 'webauthn' });
      const plantedId = planted.data!.id;

      const owner = await signedIn(strict, 'planted-key@example.com', PASSWORD);
      await enrollTotp(owner.client, testClock());
      expect(await factorExists(plantedId)).toBe(false);

      const later = await signedIn(strict, 'planted-key@example.com', PASSWORD);
      const lifted = await registerOwnKey(later.client, plantedId);
      expect(lifted.error).toMatchObject({ status: 404 });
      expect((await adminUsers(later.token)).status).toBe(403);
    });

    it('a TOTP factor planted with the password is gone once the owner enrols a security key', async () => {
      await createAdmin('planted-totp@example.com');
      const attacker = await signedIn(strict, 'planted-totp@example.com', PASSWORD);
      const planted = await attacker.client.auth.mfa.enroll({ factorType: 'totp' });
      const { id: plantedId, totp } = planted.data as { id: string; totp: { secret: string } };

      const owner = await signedIn(strict, 'planted-totp@example.com', PASSWORD);
      const enrolled = await owner.client.auth.mfa.enroll({ factorType: 'webauthn' });
      expect((await registerOwnKey(owner.client, enrolled.data!.id)).error).toBeNull();
      expect(await factorExists(plantedId)).toBe(false);

      const later = await signedIn(strict, 'planted-totp@example.com', PASSWORD);
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(totp.secret) });
      const lifted = await later.client.auth.mfa.challengeAndVerify({
        factorId: plantedId,
        code: app.generate(),
      });
      expect(lifted.error).toMatchObject({ status: 404 });
      expect((await adminUsers(later.token)).status).toBe(403);
    });

    it('a pending factor of a user with a verified one needs aal2 to be verified, of either type', async () => {
      await createAdmin('pending@example.com');
      const owner = await signedIn(strict, 'pending@example.com', PASSWORD);
      await enrollTotp(owner.client, testClock());
      // The owner, at aal2, starts enrolling a security key and leaves it pending.
      const pendingKey = await owner.client.auth.mfa.enroll({ factorType: 'webauthn' });
      expect(pendingKey.error).toBeNull();
      // A TOTP factor left pending (as one planted before this rule would be), its secret known.
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      const { rows } = await db.query<{ id: string }>(
        `insert into auth_factors (user_id, factor_type, secret)
           select id, 'totp', $2 from auth_users where email = $1 returning id`,
        ['pending@example.com', secret],
      );
      const pendingTotp = rows[0]!.id;

      const password = await signedIn(strict, 'pending@example.com', PASSWORD);
      const key = await registerOwnKey(password.client, pendingKey.data!.id);
      expect(key.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
      const code = await password.client.auth.mfa.challengeAndVerify({
        factorId: pendingTotp,
        code: app.generate(),
      });
      expect(code.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
      expect((await password.client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
        'aal1',
      );
      expect((await adminUsers(password.token)).status).toBe(403);
      expect(await factorExists(pendingTotp)).toBe(true);
    });
  });
}
