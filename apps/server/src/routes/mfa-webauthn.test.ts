// Issue 26: WebAuthn as an MFA factor through auth-js's `mfa` API (enroll, challenge, verify,
// unenroll), and the aal2 it yields satisfying the server's own rules (ADMIN_REQUIRE_MFA).
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';
import { allMigrations } from '../server.js';
import { startAuthTestServer, type AuthTestServer } from './auth-test-server.js';
import { signedIn } from './mfa-test-support.js';
import { softwareAuthenticator } from './software-authenticator.js';

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
    let db: Db;
    let strict: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(allMigrations());
      strict = await startAuthTestServer(db, { env: { ADMIN_REQUIRE_MFA: 'true' } });
    });
    afterAll(async () => {
      await strict?.close();
      await db?.close();
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
