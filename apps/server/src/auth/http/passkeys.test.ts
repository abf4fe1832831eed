// Passkeys over real HTTP with the official auth-js client (its `passkey` namespace and
// admin API), a software authenticator, PGlite and PostgreSQL. The attacks are tried, not only the
// happy path: replays, wrong challenges, counters going back, other people's credentials.
import { testDbTargets } from '@engage/db/testing';
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { enrollTotp, signedIn, testClock } from './mfa-harness.js';
import { authPost, passkeyServerContext, passkeyUser, registerPasskey } from './passkey-harness.js';
import { softwareAuthenticator } from './software-authenticator-harness.js';

const PASSWORD = 'passkey-test-pass-1';

for (const target of testDbTargets()) {
  describe(`passkeys (${target.name})`, () => {
    const { srv } = passkeyServerContext(target);
    const user = (email: string) => passkeyUser(srv, email, PASSWORD);
    const register = (client: SupabaseClient) => registerPasskey(srv, client);
    const rawPost = (path: string, body: unknown) => authPost(srv, path, body);

    it('a password-only (aal1) session of a user with a second factor changes no passkey, names included', async () => {
      const dana = await user('pk-dana@example.com');
      const { passkey } = await register(dana.client);
      await enrollTotp(dana.client, testClock());
      const password = await signedIn(srv, 'pk-dana@example.com', PASSWORD);
      const rename = await password.client.auth.passkey.update({
        passkeyId: passkey.id,
        friendlyName: 'Mine now',
      });
      expect(rename.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
      expect((await password.client.auth.passkey.delete({ passkeyId: passkey.id })).error).toMatchObject({
        status: 403,
        code: 'insufficient_aal',
      });
      const listed = await password.client.auth.passkey.list();
      expect(listed.data?.[0]?.friendly_name).not.toBe('Mine now');
      // The session that used the second factor may.
      const aal2 = await dana.client.auth.passkey.update({ passkeyId: passkey.id, friendlyName: 'Laptop' });
      expect(aal2.error).toBeNull();
    });

    it('registers, lists, renames and signs in with a passkey; last used is recorded', async () => {
      const alice = await user('pk-alice@example.com');
      const { passkey, key } = await register(alice.client);
      expect(passkey).toMatchObject({ id: expect.any(String), created_at: expect.any(String) });

      const renamed = await alice.client.auth.passkey.update({
        passkeyId: passkey.id,
        friendlyName: 'Laptop',
      });
      expect(renamed.error).toBeNull();
      expect(renamed.data).toMatchObject({ id: passkey.id, friendly_name: 'Laptop' });

      const fresh = srv.client();
      const options = await fresh.auth.passkey.startAuthentication();
      expect(options.error).toBeNull();
      const assertion = key.get(options.data!.options);
      const signedInWithPasskey = await fresh.auth.passkey.verifyAuthentication({
        challengeId: options.data!.challenge_id,
        credential: assertion as never,
      });
      expect(signedInWithPasskey.error).toBeNull();
      expect(signedInWithPasskey.data?.session?.user.id).toBe(alice.id);
      expect((await fresh.auth.getUser()).data.user?.email).toBe('pk-alice@example.com');

      const listed = await alice.client.auth.passkey.list();
      expect(listed.data).toEqual([
        expect.objectContaining({
          id: passkey.id,
          friendly_name: 'Laptop',
          last_used_at: expect.any(String),
        }),
      ]);
    });

    it('refuses a replayed assertion, and the same assertion under a new challenge', async () => {
      const { client } = await user('pk-replay@example.com');
      const { key } = await register(client);
      const options = await srv.client().auth.passkey.startAuthentication();
      const assertion = key.get(options.data!.options);
      const first = await rawPost('/passkeys/authentication/verify', {
        challenge_id: options.data!.challenge_id,
        credential: assertion,
      });
      expect(first.status).toBe(200);
      const replay = await rawPost('/passkeys/authentication/verify', {
        challenge_id: options.data!.challenge_id,
        credential: assertion,
      });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({
        code: 'webauthn_challenge_not_found',
        message: 'Challenge not found or already used',
      });

      const another = await srv.client().auth.passkey.startAuthentication();
      const replayed = await srv.client().auth.passkey.verifyAuthentication({
        challengeId: another.data!.challenge_id,
        credential: assertion as never,
      });
      expect(replayed.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });
    });

    it('refuses a wrong challenge, another origin and a counter that went back', async () => {
      const { client } = await user('pk-attacks@example.com');
      const { key } = await register(client);
      const anon = srv.client();

      const a = await anon.auth.passkey.startAuthentication();
      const b = await anon.auth.passkey.startAuthentication();
      const signedForB = key.get(b.data!.options);
      const wrong = await anon.auth.passkey.verifyAuthentication({
        challengeId: a.data!.challenge_id,
        credential: signedForB as never,
      });
      expect(wrong.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });

      const c = await anon.auth.passkey.startAuthentication();
      const phished = key.get(c.data!.options, undefined, { origin: 'https://evil.example' });
      const fromEvil = await anon.auth.passkey.verifyAuthentication({
        challengeId: c.data!.challenge_id,
        credential: phished as never,
      });
      expect(fromEvil.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });

      const d = await anon.auth.passkey.startAuthentication();
      const ok = await anon.auth.passkey.verifyAuthentication({
        challengeId: d.data!.challenge_id,
        credential: key.get(d.data!.options, undefined, { signCount: 10 }) as never,
      });
      expect(ok.error).toBeNull();
      const e = await anon.auth.passkey.startAuthentication();
      const cloned = await anon.auth.passkey.verifyAuthentication({
        challengeId: e.data!.challenge_id,
        credential: key.get(e.data!.options, undefined, { signCount: 5 }) as never,
      });
      expect(cloned.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });
      expect(cloned.error?.message).toMatch(/counter/i);
    });

    it("refuses an unknown authenticator, another user's handle, and a deleted passkey", async () => {
      const bob = await user('pk-bob@example.com');
      const carol = await user('pk-carol@example.com');
      const { key, passkey } = await register(bob.client);
      const anon = srv.client();

      const stranger = softwareAuthenticator(srv.origin);
      stranger.create({ challenge: 'AAAA', rp: {}, user: { id: Buffer.from(bob.id).toString('base64url') } });
      const u = await anon.auth.passkey.startAuthentication();
      const unknown = await anon.auth.passkey.verifyAuthentication({
        challengeId: u.data!.challenge_id,
        credential: stranger.get(u.data!.options) as never,
      });
      expect(unknown.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });

      // Bob's authenticator claiming to be Carol's account.
      const h = await anon.auth.passkey.startAuthentication();
      const forged = key.get(h.data!.options);
      forged.response.userHandle = Buffer.from(carol.id).toString('base64url');
      const asCarol = await anon.auth.passkey.verifyAuthentication({
        challengeId: h.data!.challenge_id,
        credential: forged as never,
      });
      expect(asCarol.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });

      // Carol can neither rename nor delete Bob's passkey.
      expect(
        (await carol.client.auth.passkey.update({ passkeyId: passkey.id, friendlyName: 'mine' })).error,
      ).toMatchObject({
        status: 404,
      });
      expect((await carol.client.auth.passkey.delete({ passkeyId: passkey.id })).error).toMatchObject({
        status: 404,
      });
      expect((await carol.client.auth.passkey.list()).data).toEqual([]);

      expect((await bob.client.auth.passkey.delete({ passkeyId: passkey.id })).error).toBeNull();
      const d = await anon.auth.passkey.startAuthentication();
      const deleted = await anon.auth.passkey.verifyAuthentication({
        challengeId: d.data!.challenge_id,
        credential: key.get(d.data!.options) as never,
      });
      expect(deleted.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });
    });

    it('binds a registration challenge to its session and refuses an attestation for another origin', async () => {
      const dave = await user('pk-dave@example.com');
      const erin = await user('pk-erin@example.com');
      const options = await dave.client.auth.passkey.startRegistration();
      const key = softwareAuthenticator(srv.origin);
      const stolen = await erin.client.auth.passkey.verifyRegistration({
        challengeId: options.data!.challenge_id,
        credential: key.create(options.data!.options) as never,
      });
      expect(stolen.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' });

      const again = await dave.client.auth.passkey.startRegistration();
      const evil = await dave.client.auth.passkey.verifyRegistration({
        challengeId: again.data!.challenge_id,
        credential: key.create(again.data!.options, { origin: 'https://evil.example' }) as never,
      });
      expect(evil.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });
      expect((await dave.client.auth.passkey.list()).data).toEqual([]);
    });

    it('RP id and origin come from PUBLIC_URL, not from the request', async () => {
      const frank = await user('pk-frank@example.com');
      const res = await fetch(`${srv.url}/auth/v1/passkeys/registration/options`, {
        method: 'POST',
        headers: {
          apikey: srv.anonKey,
          Authorization: `Bearer ${frank.token}`,
          Host: 'evil.example',
          'X-Forwarded-Host': 'evil.example',
          'Content-Type': 'application/json',
        },
        body: '{}',
      });
      const body = (await res.json()) as { options: { rp: { id: string } } };
      expect(body.options.rp.id).toBe(new URL(srv.origin).hostname);
      const settings = await fetch(`${srv.url}/auth/v1/settings`, { headers: { apikey: srv.anonKey } });
      expect(await settings.json()).toMatchObject({ passkeys_enabled: true });
    });

    it('refuses malformed bodies with 400, never a 500', async () => {
      for (const body of [
        {},
        { challenge_id: 'x', credential: { id: 'not base64!' } },
        { challenge_id: 'x'.repeat(100) },
      ]) {
        const res = await rawPost('/passkeys/authentication/verify', body);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'validation_failed' });
      }
    });

    it("admin lists and deletes a user's passkeys; a user token cannot", async () => {
      const grace = await user('pk-grace@example.com');
      const { passkey } = await register(grace.client);
      const admin = srv.client('service');
      const listed = await admin.auth.admin.passkey.listPasskeys({ userId: grace.id });
      expect(listed.data).toEqual([expect.objectContaining({ id: passkey.id })]);

      const asUser = await fetch(`${srv.url}/auth/v1/admin/users/${grace.id}/passkeys`, {
        headers: { apikey: srv.anonKey, Authorization: `Bearer ${grace.token}` },
      });
      expect(asUser.status).toBe(403);
      const deleteAsUser = await fetch(`${srv.url}/auth/v1/admin/users/${grace.id}/passkeys/${passkey.id}`, {
        method: 'DELETE',
        headers: { apikey: srv.anonKey, Authorization: `Bearer ${grace.token}` },
      });
      expect(deleteAsUser.status).toBe(403);

      expect(
        (await admin.auth.admin.passkey.deletePasskey({ userId: grace.id, passkeyId: passkey.id })).error,
      ).toBeNull();
      expect((await admin.auth.admin.passkey.listPasskeys({ userId: grace.id })).data).toEqual([]);
    });
  });
}

for (const target of testDbTargets()) {
  describe(`passkeys from the site's other origins, AUTH_WEBAUTHN_RP_ORIGINS (${target.name})`, () => {
    const site = 'http://example.localhost:8080';
    const www = 'http://www.example.localhost:8080';
    const { srv: only } = passkeyServerContext(target, { env: { PUBLIC_URL: site } });
    const { srv: both } = passkeyServerContext(target, {
      env: { PUBLIC_URL: site, AUTH_WEBAUTHN_RP_ORIGINS: www },
    });

    it('accepts a ceremony from a listed origin of the relying party, and from no other', async () => {
      const carla = await passkeyUser(both, 'pk-www@example.com', PASSWORD);
      const { passkey } = await registerPasskey(both, carla.client, softwareAuthenticator(www));
      expect(passkey).toMatchObject({ id: expect.any(String) });
      const elsewhere = await carla.client.auth.passkey.startRegistration();
      const refused = await carla.client.auth.passkey.verifyRegistration({
        challengeId: elsewhere.data!.challenge_id,
        credential: softwareAuthenticator('http://evil.example:8080').create(
          elsewhere.data!.options,
        ) as never,
      });
      expect(refused.error).toMatchObject({ status: 422, code: 'webauthn_verification_failed' });

      // Without the setting, the www origin is refused: PUBLIC_URL's origin alone.
      const dan = await passkeyUser(only, 'pk-www@example.com', PASSWORD);
      await expect(registerPasskey(only, dan.client, softwareAuthenticator(www))).rejects.toMatchObject({
        code: 'webauthn_verification_failed',
      });
      await expect(registerPasskey(only, dan.client, softwareAuthenticator(site))).resolves.toBeTruthy();
    });
  });
}
