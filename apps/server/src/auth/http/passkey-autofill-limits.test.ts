// The passkey limits as visitors behind one address meet them: the sign-in
// form's passkey autofill asks for a challenge whenever it opens, and everyone behind one NAT or one
// IPv6 /64 counts as one address. Those challenges have a bucket of their own, so they never spend
// the budget of the verification that signs a real user in; and the challenges, stored rows, stay
// bounded (per address by that bucket, overall by a cap, and each for 5 minutes at most).
// With the server's default limits, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../rate-limit.js';
import { saveChallenge, takeChallenge } from '../webauthn-challenges.js';
import { WEBAUTHN_CHALLENGE_MS } from '../webauthn.js';
import { authApiHeaders, passkeyServerContext, passkeyUser, registerPasskey } from './passkey-harness.js';

const PASSWORD = 'passkey-autofill-pass-1';

interface Options {
  challenge_id: string;
  options: { challenge: string; rpId?: string };
}

for (const target of testDbTargets()) {
  describe(`passkey limits behind one /64 (${target.name})`, () => {
    const { db, srv } = passkeyServerContext(target, { rateLimits: {} }); // every limit at its default

    /** A POST to the auth API arriving on a socket from `address` (as the Node adapter reports it). */
    const post = (address: string, path: string, body: unknown = {}) =>
      srv.app.request(
        `/auth/v1${path}`,
        {
          method: 'POST',
          headers: authApiHeaders(srv),
          body: JSON.stringify(body),
        },
        { incoming: { socket: { remoteAddress: address, remoteFamily: 'IPv6' } } },
      );
    const options = async (address: string) => {
      const res = await post(address, '/passkeys/authentication/options');
      return { status: res.status, body: res.status === 200 ? ((await res.json()) as Options) : null };
    };

    /** A user with a passkey on a software authenticator, registered from the test's own address. */
    async function userWithPasskey(email: string) {
      const { client } = await passkeyUser(srv, email, PASSWORD);
      return (await registerPasskey(srv, client)).key;
    }

    it('lets a passkey sign in from a /64 whose other visitors opened the form many times', async () => {
      const key = await userWithPasskey('autofill-alice@example.com');
      // 40 visitors of one office network, each opening the sign-in form twice: 80 challenges, more
      // than twice the verification budget, every one of them answered.
      const statuses: number[] = [];
      for (let visitor = 1; visitor <= 40; visitor++)
        for (let visit = 0; visit < 2; visit++)
          statuses.push((await options(`2001:db8:5:6::${visitor.toString(16)}`)).status);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      const alice = '2001:db8:5:6:a11c:e::1';
      const asked = await options(alice);
      expect(asked.status).toBe(200);
      const signIn = await post(alice, '/passkeys/authentication/verify', {
        challenge_id: asked.body!.challenge_id,
        credential: key.get(asked.body!.options),
      });
      expect(signIn.status).toBe(200);
      expect(await signIn.json()).toMatchObject({
        access_token: expect.any(String),
        user: { email: 'autofill-alice@example.com' },
      });
    });

    it('bounds the challenges one /64 gets, and a flood of them still leaves its verifications alone', async () => {
      const key = await userWithPasskey('autofill-bob@example.com');
      const bob = '2001:db8:7:8::b0b';
      const asked = await options(bob);
      expect(asked.status).toBe(200);
      // Someone on Bob's network asks for challenges until refused: the bucket holds (refilling by one
      // every 2 s while this runs), then 429.
      const budget = DEFAULT_LIMITS.passkeyOptions.burst;
      let granted = 1;
      let refused: Response | null = null;
      for (let i = 1; i <= budget * 2 && !refused; i++) {
        const res = await post(`2001:db8:7:8::${i.toString(16)}`, '/passkeys/authentication/options');
        if (res.status === 200) granted++;
        else refused = res;
      }
      expect(granted).toBeGreaterThanOrEqual(budget);
      expect(granted).toBeLessThan(budget * 1.5);
      expect(refused?.status).toBe(429);
      expect(await refused!.json()).toMatchObject({ code: 'over_request_rate_limit' });
      // Another /64 is not touched.
      expect((await options('2001:db8:7:9::1')).status).toBe(200);

      // Bob, who picked his passkey from the autofill meanwhile, is signed in.
      const signIn = await post(bob, '/passkeys/authentication/verify', {
        challenge_id: asked.body!.challenge_id,
        credential: key.get(asked.body!.options),
      });
      expect(signIn.status).toBe(200);
    });

    it('keeps at most a fixed number of pending challenges overall, each for 5 minutes at most', async () => {
      const now = Date.now();
      const pending = async () =>
        (await db.query<{ n: number }>('select count(*)::int as n from auth_webauthn_challenges')).rows[0]!.n;
      const cap = (await pending()) + 2;
      const first = await saveChallenge(db, 'authentication', 'c1', {}, now, { maxPending: cap });
      await saveChallenge(db, 'authentication', 'c2', {}, now, { maxPending: cap });
      await expect(
        saveChallenge(db, 'authentication', 'c3', {}, now, { maxPending: cap }),
      ).rejects.toMatchObject({
        status: 429,
        code: 'over_request_rate_limit',
      });
      expect(await pending()).toBe(cap);

      // Five minutes on, the old ones are refused and make room.
      const later = now + WEBAUTHN_CHALLENGE_MS + 1;
      await expect(takeChallenge(db, first.id, 'authentication', {}, later)).rejects.toMatchObject({
        status: 400,
        code: 'webauthn_challenge_expired',
        message: 'Challenge has expired',
      });
      // Unknown, spent or malformed: GoTrue's other answers.
      await expect(takeChallenge(db, first.id, 'authentication', {}, later)).rejects.toMatchObject({
        status: 400,
        code: 'webauthn_challenge_not_found',
      });
      await expect(takeChallenge(db, 'not-a-uuid', 'authentication', {}, later)).rejects.toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
      // Expired ones no longer count against the cap; they are deleted once twice as old.
      await saveChallenge(db, 'authentication', 'c4', {}, later, { maxPending: cap });
      await saveChallenge(db, 'authentication', 'c5', {}, now + 2 * WEBAUTHN_CHALLENGE_MS + 1, {
        maxPending: cap,
      });
      expect(await pending()).toBe(2);
    });
  });
}
