// Issue 26 through the official client: OAuth client administration (auth-js admin.oauth.*), the
// apikey rule of a Supabase project's gateway, and GoTrue's answers for reauthenticate(),
// unlinkIdentity() and a phone verifyOtp(). On PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { createHash } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUser } from '../auth/admin-users.js';
import { serverMigrations } from '../db/migrations/index.js';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';
import { startAuthTestServer, type AuthTestServer } from './auth-test-server.js';

const password = 'correct horse 1';
let n = 0;
const newEmail = () => `edges${Date.now()}-${n++}@example.com`;
const clientParams = () => ({
  client_name: `Test OAuth Client ${n++}`,
  redirect_uris: ['https://app.example.com/callback', `https://example.com/callback/${n++}`],
  grant_types: ['authorization_code' as const, 'refresh_token' as const],
  response_types: ['code' as const],
});

for (const target of testDbTargets()) {
  describe(`GoTrue edges with supabase-js on ${target.name}`, () => {
    let db: Db;
    let srv: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db);
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    const signedIn = async () => {
      const email = newEmail();
      await createUser(db, { email, password, emailConfirm: true });
      const client = srv.client();
      const { data } = await client.auth.signInWithPassword({ email, password });
      return { client, email, token: data.session?.access_token as string };
    };
    const hashOf = async (id: string) =>
      (
        await db.query<{ client_secret_hash: string | null }>(
          'select client_secret_hash from auth_oauth_clients where id = $1',
          [id],
        )
      ).rows[0]?.client_secret_hash;

    describe('OAuth clients (admin.oauth)', () => {
      it('create, get, update, delete: the secret is shown once and only its hash is stored', async () => {
        const oauth = srv.client('service').auth.admin.oauth;
        const params = clientParams();
        const created = await oauth.createClient(params);
        expect(created.error).toBeNull();
        expect(created.data).toMatchObject({
          client_name: params.client_name,
          client_type: 'confidential',
          token_endpoint_auth_method: 'client_secret_basic',
          registration_type: 'manual',
          redirect_uris: params.redirect_uris,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        });
        const id = created.data?.client_id as string;
        const secret = created.data?.client_secret as string;
        expect(secret).toMatch(/^[\w-]{43}$/);
        expect(await hashOf(id)).toBe(createHash('sha256').update(secret).digest('base64url'));

        const got = await oauth.getClient(id);
        expect(got.data?.client_id).toBe(id);
        expect(got.data).not.toHaveProperty('client_secret');

        const updated = await oauth.updateClient(id, { logo_uri: 'https://example.com/logo.png' });
        expect(updated.error).toBeNull();
        expect(updated.data).toMatchObject({
          client_name: params.client_name,
          logo_uri: 'https://example.com/logo.png',
        });
        expect(updated.data).not.toHaveProperty('client_secret');

        expect((await oauth.deleteClient(id)).error).toBeNull();
        const gone = await oauth.getClient(id);
        expect(gone.data).toBeNull();
        expect(gone.error).toMatchObject({ status: 404, code: 'oauth_client_not_found' });
      });

      it('lists newest first with paging, never a secret; regenerating replaces the secret', async () => {
        const oauth = srv.client('service').auth.admin.oauth;
        const ids: string[] = [];
        const secrets: string[] = [];
        for (let i = 0; i < 3; i++) {
          const { data } = await oauth.createClient(clientParams());
          ids.push(data?.client_id as string);
          secrets.push(data?.client_secret as string);
        }
        const all = await oauth.listClients();
        expect(all.error).toBeNull();
        const listed = all.data.clients.map((c) => c.client_id);
        for (const id of ids) expect(listed).toContain(id);
        expect(JSON.stringify(all.data)).not.toContain('"client_secret"');
        const page = await oauth.listClients({ page: 1, perPage: 2 });
        expect(page.data.clients).toHaveLength(2);
        expect(page.data.clients[0]?.client_id).toBe(ids[2]);
        expect(page.data).toMatchObject({ nextPage: 2, total: all.data.clients.length });

        const regen = await oauth.regenerateClientSecret(ids[0] as string);
        expect(regen.error).toBeNull();
        expect(regen.data?.client_secret).toMatch(/^[\w-]{43}$/);
        expect(regen.data?.client_secret).not.toBe(secrets[0]);
        expect(await hashOf(ids[0] as string)).toBe(
          createHash('sha256')
            .update(regen.data?.client_secret as string)
            .digest('base64url'),
        );
        // The secret is never returned twice: reading the client again does not show it.
        expect((await oauth.getClient(ids[0] as string)).data).not.toHaveProperty('client_secret');
      });

      it('answers GoTrue\u2019s validation errors, and public clients have no secret', async () => {
        const oauth = srv.client('service').auth.admin.oauth;
        const empty = await oauth.createClient({ client_name: 'Invalid Client', redirect_uris: [] });
        expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed' });
        expect(empty.error?.message).toBe('redirect_uris is required');
        for (const uri of ['javascript:alert(1)//x', 'http://evil.example/cb', 'https://a.example/cb#frag'])
          expect((await oauth.createClient({ client_name: 'x', redirect_uris: [uri] })).error).toMatchObject({
            status: 400,
            code: 'validation_failed',
          });
        const minimal = await oauth.createClient({
          client_name: 'Minimal',
          redirect_uris: ['http://localhost:3000/callback'],
          token_endpoint_auth_method: 'none',
        });
        expect(minimal.data).toMatchObject({ client_type: 'public', token_endpoint_auth_method: 'none' });
        expect(minimal.data).not.toHaveProperty('client_secret');
        const id = minimal.data?.client_id as string;
        expect(await hashOf(id)).toBeNull();
        const regen = await oauth.regenerateClientSecret(id);
        expect(regen.error?.message).toBe('Cannot regenerate secret for public client');
        const nothing = await oauth.updateClient(id, {});
        expect(nothing.error?.message).toBe('No fields provided for update');
        const badId = await oauth.getClient('not-a-uuid');
        expect(badId.error).toMatchObject({ status: 400, message: 'invalid client_id format' });
        const unknown = await oauth.getClient('00000000-0000-0000-0000-000000000000');
        expect(unknown.error).toMatchObject({ status: 404, code: 'oauth_client_not_found' });
      });

      it('attack: only the service role may administer clients', async () => {
        const anonAdmin = srv.client('anon').auth.admin.oauth;
        expect((await anonAdmin.listClients()).error).toMatchObject({ status: 403, code: 'not_admin' });
        expect(
          (await anonAdmin.createClient({ client_name: 'x', redirect_uris: ['https://a.example/cb'] })).error,
        ).toMatchObject({ status: 403 });
        const { token } = await signedIn();
        const asUser = createClient(srv.url, srv.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          global: { headers: { Authorization: `Bearer ${token}` } },
          realtime: { transport: WebSocket as never },
        });
        expect((await asUser.auth.admin.oauth.listClients()).error).toMatchObject({
          status: 403,
          code: 'not_admin',
        });
        const noBearer = await fetch(`${srv.url}/auth/v1/admin/oauth/clients`, {
          headers: { apikey: srv.anonKey },
        });
        expect(noBearer.status).toBe(401);
        const noKey = await fetch(`${srv.url}/auth/v1/admin/oauth/clients`, {
          headers: { Authorization: `Bearer ${srv.serviceRoleKey}` },
        });
        expect(noKey.status).toBe(401);
        const { rows } = await db.query<{ n: number }>(
          "select count(*)::int as n from auth_oauth_clients where client_name = 'x' and redirect_uris ? 'https://a.example/cb'",
        );
        expect(rows[0]?.n).toBe(0);
      });
    });

    it('the dashboard API (/api/admin/oauth-clients): admins only, the secret in the create answer alone', async () => {
      const { token: userToken } = await signedIn();
      const asUser = await fetch(`${srv.url}/api/admin/oauth-clients`, {
        headers: { Authorization: `Bearer ${userToken}` },
      });
      expect(asUser.status).toBe(403);
      const refused = await fetch(`${srv.url}/api/admin/oauth-clients`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'evil',
          redirect_uris: ['https://evil.example/cb'],
          client_type: 'confidential',
        }),
      });
      expect(refused.status).toBe(403);
      const email = newEmail();
      await createUser(db, { email, password, emailConfirm: true, appMetadata: { role: 'admin' } });
      const { data } = await srv.client().auth.signInWithPassword({ email, password });
      const admin = { Authorization: `Bearer ${data.session?.access_token as string}` };
      const created = await fetch(`${srv.url}/api/admin/oauth-clients`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Dash',
          redirect_uris: ['https://dash.example/cb'],
          client_type: 'confidential',
        }),
      });
      expect(created.status).toBe(201);
      const { client } = (await created.json()) as { client: { client_id: string; client_secret: string } };
      expect(client.client_secret).toMatch(/^[\w-]{43}$/);
      const list = await fetch(`${srv.url}/api/admin/oauth-clients`, { headers: admin });
      expect(list.status).toBe(200);
      const text = await list.text();
      expect(text).toContain(client.client_id);
      expect(text).not.toContain(client.client_secret);
      const bad = await fetch(`${srv.url}/api/admin/oauth-clients`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: '', redirect_uris: [], client_type: 'confidential' }),
      });
      expect(bad.status).toBe(400);
      const removed = await fetch(`${srv.url}/api/admin/oauth-clients/${client.client_id}`, {
        method: 'DELETE',
        headers: admin,
      });
      expect(removed.status).toBe(204);
    });

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

      it('keeps every other route closed without a key, path tricks included', async () => {
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
            headers: { Authorization: `Bearer ${srv.serviceRoleKey}` },
          });
          expect([path, res.status]).toEqual([path, 401]);
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
    });
  });
}
