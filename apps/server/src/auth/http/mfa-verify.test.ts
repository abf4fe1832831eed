// A TOTP code is accepted once per factor, a challenge is verified once
// even by concurrent requests, and a factor backs off after 5 wrong codes (state on its row).
// Real HTTP, supabase-js, PGlite and PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { REUSED_CODE_MESSAGE } from '../mfa-attempts.js';
import { enrollTotp, signedIn, testClock } from './mfa-harness.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const PASSWORD = 'user-secret-pass';

for (const target of testDbTargets()) {
  describe(`TOTP verification (${target.name})`, () => {
    let db: Db;
    let srv: AuthTestServer;
    const clock = testClock();

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db, { now: clock.now });
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    /** A user with a verified factor, signed in again with the password alone (aal1). */
    async function userWithFactor(email: string) {
      await srv.service.admin.create({ email, password: PASSWORD, email_confirm: true });
      const first = await signedIn(srv, email, PASSWORD);
      const app = await enrollTotp(first.client, clock);
      const { client } = await signedIn(srv, email, PASSWORD);
      return { client, ...app };
    }
    const verifyRaw = (token: string, factorId: string, challengeId: string, code: string) =>
      fetch(`${srv.url}/auth/v1/factors/${factorId}/verify`, {
        method: 'POST',
        headers: {
          apikey: srv.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'X-Supabase-Api-Version': '2024-01-01',
        },
        body: JSON.stringify({ challenge_id: challengeId, code }),
      });

    it('never accepts one code twice for a factor, even on a new challenge within its window', async () => {
      const { client, factorId, code } = await userWithFactor('replay@example.com');
      // The code used at enrolment is still within its 30 s window: replayed on a new challenge.
      const replay = await client.auth.mfa.challengeAndVerify({ factorId, code: code() });
      expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
      // Said as what it is: the owner typed the code just used, not a wrong one.
      expect(replay.error?.message).toBe(REUSED_CODE_MESSAGE);
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
      // The app's next code works, once.
      clock.advance(30_000);
      const next = code();
      expect((await client.auth.mfa.challengeAndVerify({ factorId, code: next })).error).toBeNull();
      const again = await srv
        .client()
        .auth.signInWithPassword({ email: 'replay@example.com', password: PASSWORD });
      const other = srv.client();
      await other.auth.setSession(again.data.session!);
      expect((await other.auth.mfa.challengeAndVerify({ factorId, code: next })).error).toMatchObject({
        code: 'mfa_verification_failed',
        message: REUSED_CODE_MESSAGE,
      });
      // A wrong code keeps GoTrue's words.
      const wrong = await other.auth.mfa.challengeAndVerify({
        factorId,
        code: next === '000000' ? '111111' : '000000',
      });
      expect(wrong.error).toMatchObject({
        code: 'mfa_verification_failed',
        message: 'Invalid TOTP code entered',
      });
    });

    it('verifies one challenge once when several requests race with the right code', async () => {
      const { client, factorId, code } = await userWithFactor('race@example.com');
      clock.advance(30_000);
      const token = (await client.auth.getSession()).data.session!.access_token;
      const challenge = await client.auth.mfa.challenge({ factorId });
      const challengeId = challenge.data!.id;
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => verifyRaw(token, factorId, challengeId, code())),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 422, 422, 422, 422, 422]);
      // One live refresh token for the session: no second pair of tokens was issued.
      const sessionId = (
        JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { session_id: string }
      ).session_id;
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from auth_refresh_tokens where session_id = $1 and not revoked',
        [sessionId],
      );
      expect(rows[0]?.n).toBe(1);
    });

    it('backs off after 5 wrong codes, the right one included, on the factor row, then recovers', async () => {
      const { client, factorId, code } = await userWithFactor('guess@example.com');
      clock.advance(30_000);
      const right = code();
      const wrong = right === '000000' ? '111111' : '000000';
      const challenge = (await client.auth.mfa.challenge({ factorId })).data!.id;
      for (let i = 0; i < 5; i++) {
        const res = await client.auth.mfa.verify({ factorId, challengeId: challenge, code: wrong });
        expect(res.error, `wrong code ${i + 1}`).toMatchObject({
          status: 422,
          code: 'mfa_verification_failed',
        });
      }
      const locked = await client.auth.mfa.verify({ factorId, challengeId: challenge, code: right });
      expect(locked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      expect(locked.error?.message).toMatch(/Too many wrong codes .* try again in 30 seconds/);
      // Kept in the database, where every server instance reads it.
      const row = async () =>
        (
          await db.query<{ failed_verifications: number; verify_locked_until: Date | null }>(
            'select failed_verifications, verify_locked_until from auth_factors where id = $1',
            [factorId],
          )
        ).rows[0];
      expect(await row()).toMatchObject({ failed_verifications: 5 });
      expect((await row())?.verify_locked_until).not.toBeNull();
      // After the back-off a fresh code works and the count starts again.
      clock.advance(30_000);
      const fresh = await client.auth.mfa.challengeAndVerify({ factorId, code: code() });
      expect(fresh.error).toBeNull();
      expect(await row()).toMatchObject({ failed_verifications: 0, verify_locked_until: null });
    });

    it('doubles the back-off with each further wrong code', async () => {
      const { client, factorId } = await userWithFactor('slower@example.com');
      const challenge = (await client.auth.mfa.challenge({ factorId })).data!.id;
      const attempt = () => client.auth.mfa.verify({ factorId, challengeId: challenge, code: 'abcdef' });
      for (let i = 0; i < 5; i++) await attempt();
      clock.advance(30_000);
      expect((await attempt()).error).toMatchObject({ status: 422 });
      const locked = await attempt();
      expect(locked.error).toMatchObject({ status: 429 });
      expect(locked.error?.message).toContain('try again in 60 seconds');
    });
  });
}
