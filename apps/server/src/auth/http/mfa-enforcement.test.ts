// A user with a verified factor needs an aal2 token for every privileged route,
// decided on the server at request time. Real HTTP, supabase-js, PGlite and PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../../server.js';
import { enrollTotp, signedIn, testClock } from './mfa-harness.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const PASSWORD = 'admin-secret-pass';

for (const target of testDbTargets()) {
  describe(`MFA on the server's privileged routes (${target.name})`, () => {
    let db: Db;
    let srv: AuthTestServer;
    let strict: AuthTestServer;
    const clock = testClock();

    beforeAll(async () => {
      db = await target.open(allMigrations());
      srv = await startAuthTestServer(db, { now: clock.now });
      strict = await startAuthTestServer(db, { now: clock.now, env: { ADMIN_REQUIRE_MFA: 'true' } });
    });
    afterAll(async () => {
      await srv?.close();
      await strict?.close();
      await db?.close();
    });

    const createAdmin = (email: string) =>
      srv.service.admin.create({
        email,
        password: PASSWORD,
        email_confirm: true,
        app_metadata: { role: 'admin' },
      });
    const api = (server: AuthTestServer, method: string, path: string, token: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const userCount = async (email: string) =>
      (await db.query('select 1 from auth_users where email = $1', [email])).rows.length;

    it('refuses a password-only (aal1) token of an admin with a factor: outbox, users, provider, calls', async () => {
      await createAdmin('mfa-admin@example.com');
      const enrolled = await signedIn(srv, 'mfa-admin@example.com', PASSWORD);
      const app = await enrollTotp(enrolled.client, clock);

      // The reported attack: the password alone gives an aal1 token…
      const { client, token } = await signedIn(srv, 'mfa-admin@example.com', PASSWORD);
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
        currentLevel: 'aal1',
        nextLevel: 'aal2',
      });
      // …which no privileged route takes.
      const refused: [string, string, unknown?][] = [
        ['GET', '/api/admin/outbox'],
        ['GET', '/api/admin/users'],
        ['POST', '/api/admin/users', { email: 'created-by-aal1@example.com', password: 'another-pass-1' }],
        ['GET', '/api/provider/assistant'],
        ['POST', '/api/calls/websocket', { assistantId: 'asst_index' }],
      ];
      for (const [method, path, body] of refused) {
        const res = await api(srv, method, path, token, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(await res.json(), `${method} ${path}`).toMatchObject({
          error: 'mfa_required',
          message: expect.stringContaining('authenticator app'),
        });
      }
      expect(await userCount('created-by-aal1@example.com')).toBe(0);

      // The code raises the same session to aal2, and the routes answer.
      clock.advance(30_000);
      const factorId = (await client.auth.mfa.listFactors()).data?.totp[0]?.id as string;
      const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: app.code() });
      expect(verified.error).toBeNull();
      const aal2 = verified.data?.access_token as string;
      expect((await api(srv, 'GET', '/api/admin/outbox', aal2)).status).toBe(200);
      expect((await api(srv, 'GET', '/api/provider/assistant', aal2)).status).toBe(200);
      expect(
        (await api(srv, 'POST', '/api/calls/websocket', aal2, { assistantId: 'asst_index' })).status,
      ).toBe(201);
      const created = await api(srv, 'POST', '/api/admin/users', aal2, {
        email: 'created-by-aal2@example.com',
        password: 'another-pass-1',
      });
      expect(created.status).toBe(201);
    });

    it('counts a factor enrolled after the token was issued', async () => {
      await createAdmin('late-factor@example.com');
      const { client, token } = await signedIn(srv, 'late-factor@example.com', PASSWORD);
      expect((await api(srv, 'GET', '/api/admin/outbox', token)).status).toBe(200);
      const { session } = await enrollTotp(client, clock);
      // The token from before the factor is aal1: refused from now on; the verified session's is not.
      const before = await api(srv, 'GET', '/api/admin/outbox', token);
      expect(before.status).toBe(403);
      expect(await before.json()).toMatchObject({ error: 'mfa_required' });
      expect((await api(srv, 'GET', '/api/admin/outbox', session.access_token)).status).toBe(200);
    });

    it('ADMIN_REQUIRE_MFA=true: an admin without a verified factor is sent to enrol first', async () => {
      await createAdmin('must-enrol@example.com');
      const { client, token } = await signedIn(strict, 'must-enrol@example.com', PASSWORD);
      const res = await api(strict, 'GET', '/api/admin/users', token);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        error: 'mfa_enrollment_required',
        message: expect.stringContaining('two-factor'),
      });
      // An unverified factor is not enough; a verified one, used in this session, is.
      await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'pending' });
      expect((await api(strict, 'GET', '/api/admin/users', token)).status).toBe(403);
      const { session } = await enrollTotp(client, clock, 'phone app');
      expect((await api(strict, 'GET', '/api/admin/users', session.access_token)).status).toBe(200);
      // The same server without the setting lets an admin without a factor in.
      await createAdmin('relaxed@example.com');
      const relaxed = await signedIn(srv, 'relaxed@example.com', PASSWORD);
      expect((await api(srv, 'GET', '/api/admin/users', relaxed.token)).status).toBe(200);
      // The setting leaves other users alone (they get forbidden, as before).
      const user = await strict.service.admin.create({
        email: 'plain@example.com',
        password: PASSWORD,
        email_confirm: true,
      });
      expect(user).toBeTruthy();
      const plain = await signedIn(strict, 'plain@example.com', PASSWORD);
      expect(await (await api(strict, 'GET', '/api/admin/users', plain.token)).json()).toMatchObject({
        error: 'forbidden',
      });
    });
  });
}
