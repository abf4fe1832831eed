// The admin dashboard's API for a user's passkeys (/api/admin/users/:id/passkeys): admins
// only, aal2 when they have a factor, removal audited. Real HTTP, auth-js, PGlite and PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../auth/http/mfa-harness.js';
import { startAuthTestServer, type AuthTestServer } from '../auth/http/server-harness.js';
import { softwareAuthenticator } from '../auth/http/software-authenticator-harness.js';
import { allMigrations } from '../server.js';

const PASSWORD = 'admin-passkeys-pass-1';

for (const target of testDbTargets()) {
  describe(`admin API: a user's passkeys (${target.name})`, () => {
    let db: Db;
    let srv: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(allMigrations());
      srv = await startAuthTestServer(db);
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    const api = (method: string, path: string, token: string) =>
      fetch(`${srv.url}/api/admin${path}`, { method, headers: { Authorization: `Bearer ${token}` } });

    it('lists and removes (audited) for an admin; refuses a plain user and bad ids', async () => {
      await srv.service.admin.create({
        email: 'apk-admin@example.com',
        password: PASSWORD,
        email_confirm: true,
        app_metadata: { role: 'admin' },
      });
      const owner = await srv.service.admin.create({
        email: 'apk-user@example.com',
        password: PASSWORD,
        email_confirm: true,
      });
      const admin = await signedIn(srv, 'apk-admin@example.com', PASSWORD);
      const user = await signedIn(srv, 'apk-user@example.com', PASSWORD);

      const options = await user.client.auth.passkey.startRegistration();
      const registered = await user.client.auth.passkey.verifyRegistration({
        challengeId: options.data!.challenge_id,
        credential: softwareAuthenticator(srv.origin).create(options.data!.options) as never,
      });
      expect(registered.error).toBeNull();
      await user.client.auth.passkey.update({ passkeyId: registered.data!.id, friendlyName: 'Phone' });

      expect((await api('GET', `/users/${owner.id}/passkeys`, user.token)).status).toBe(403);
      expect(
        (await api('DELETE', `/users/${owner.id}/passkeys/${registered.data!.id}`, user.token)).status,
      ).toBe(403);
      expect((await api('GET', '/users/not-a-uuid/passkeys', admin.token)).status).toBe(400);

      const listed = await api('GET', `/users/${owner.id}/passkeys`, admin.token);
      expect(listed.status).toBe(200);
      expect(await listed.json()).toEqual({
        passkeys: [
          {
            id: registered.data!.id,
            friendly_name: 'Phone',
            created_at: expect.any(String),
            last_used_at: null,
          },
        ],
      });
      const unknown = await api(
        'DELETE',
        `/users/${owner.id}/passkeys/00000000-0000-4000-8000-000000000000`,
        admin.token,
      );
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: 'passkey_not_found' });

      const removed = await api('DELETE', `/users/${owner.id}/passkeys/${registered.data!.id}`, admin.token);
      expect(removed.status).toBe(200);
      expect(await removed.json()).toMatchObject({
        passkey: { id: registered.data!.id, friendly_name: 'Phone' },
      });
      expect((await user.client.auth.passkey.list()).data).toEqual([]);
      const audit = (await (await api('GET', '/audit?limit=5', admin.token)).json()) as {
        entries: { action: string; target_email: string; detail: string }[];
      };
      expect(audit.entries[0]).toMatchObject({
        action: 'user.passkey_delete',
        target_email: 'apk-user@example.com',
        detail: 'Phone',
      });
    });
  });
}
