// Recovery codes: made in a session that used the second factor, shown once, each good once at the
// second step (an aal1 session raised to aal2), wrong ones counted with the authenticator's, gone with
// the last factor. Real HTTP, supabase-js, PGlite and PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { enrollTotp, signedIn, testClock } from './mfa-harness.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const PASSWORD = 'user-secret-pass';

for (const target of testDbTargets()) {
  describe(`recovery codes (${target.name})`, () => {
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

    const call = (token: string, path: string, body?: unknown) =>
      fetch(`${srv.url}/auth/v1/recovery-codes${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          apikey: srv.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });

    async function userWithCodes(email: string) {
      await srv.service.admin.create({ email, password: PASSWORD, email_confirm: true });
      const first = await signedIn(srv, email, PASSWORD);
      const app = await enrollTotp(first.client, clock);
      const made = await call(app.session.access_token, '', {});
      expect(made.status).toBe(200);
      const { codes } = (await made.json()) as { codes: string[] };
      const { token } = await signedIn(srv, email, PASSWORD);
      return { ...app, codes, token, aal2Token: app.session.access_token };
    }

    it('makes ten codes shown once, and one of them raises a password-only session to aal2, once', async () => {
      const { codes, token, aal2Token } = await userWithCodes('codes@example.com');
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
      expect(await (await call(aal2Token, '')).json()).toMatchObject({ remaining: 10 });
      // The codes themselves are never shown again.
      expect(JSON.stringify(await (await call(aal2Token, '')).json())).not.toContain(codes[0]);

      // Typed as a person would: lower case, without the dash.
      const used = await call(token, '/verify', {
        code: (codes[0] as string).toLowerCase().replace('-', ''),
      });
      expect(used.status).toBe(200);
      const session = (await used.json()) as { access_token: string; refresh_token: string };
      const claims = JSON.parse(
        Buffer.from(session.access_token.split('.')[1] as string, 'base64url').toString(),
      );
      expect(claims.aal).toBe('aal2');
      expect(await (await call(session.access_token, '')).json()).toMatchObject({ remaining: 9 });

      const { token: later } = await signedIn(srv, 'codes@example.com', PASSWORD);
      const replay = await call(later, '/verify', { code: codes[0] });
      expect(replay.status).toBe(422);
      expect(await replay.json()).toMatchObject({ error_code: 'mfa_verification_failed' });
    });

    it('only a session that used the factor makes codes; wrong codes back off as wrong authenticator codes do', async () => {
      const { codes, token } = await userWithCodes('guesses@example.com');
      const refused = await call(token, '', {});
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error_code: 'insufficient_aal' });
      for (let i = 0; i < 5; i++) {
        const wrong = await call(token, '/verify', { code: `WRONG-${i}AAAA` });
        expect(wrong.status).toBe(422);
      }
      // The sixth meets the factor's back-off, the right code included.
      const locked = await call(token, '/verify', { code: codes[1] });
      expect(locked.status).toBe(429);
      clock.advance(10 * 60_000);
      expect((await call(token, '/verify', { code: codes[1] })).status).toBe(200);
    });

    it('go with the last verified factor', async () => {
      const { factorId, aal2Token } = await userWithCodes('unenrol@example.com');
      // Unenrolling a verified factor needs aal2: the enrolment's own session.
      const res = await fetch(`${srv.url}/auth/v1/factors/${factorId}`, {
        method: 'DELETE',
        headers: { apikey: srv.anonKey, Authorization: `Bearer ${aal2Token}` },
      });
      expect(res.status).toBe(200);
      const left = await db.query(
        `select count(*)::int as n from auth_mfa_recovery_codes c join auth_users u on u.id = c.user_id
          where u.email = 'unenrol@example.com'`,
      );
      expect(left.rows[0]).toEqual({ n: 0 });
    });
  });
}
