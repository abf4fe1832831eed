// OAuth client administration (auth-js admin.oauth.*) and
// the dashboard's /api/admin/oauth-clients, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { createHash } from 'node:crypto';
import { testDbTargets } from '@engage/db/testing';
import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUser } from '../user-store.js';
import { authServerContext, newEmail, password } from './auth-harness.js';

let n = 0;
const clientParams = () => ({
  client_name: `Test OAuth Client ${n++}`,
  redirect_uris: ['https://app.example.com/callback', `https://example.com/callback/${n++}`],
  grant_types: ['authorization_code' as const, 'refresh_token' as const],
  response_types: ['code' as const],
});

for (const target of testDbTargets()) {
  describe(`OAuth clients with supabase-js on ${target.name}`, () => {
    const { db, srv, signedIn } = authServerContext(target);
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
        const wrongKey = await fetch(`${srv.url}/auth/v1/admin/oauth/clients`, {
          headers: { apikey: 'wrong', Authorization: `Bearer ${srv.serviceRoleKey}` },
        });
        expect(wrongKey.status).toBe(401);
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
      // Edited: its name and redirect URIs; a bad URI is refused as it is, whole, and nothing changes.
      const edit = (body: unknown) =>
        fetch(`${srv.url}/api/admin/oauth-clients/${client.client_id}`, {
          method: 'PUT',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const wrong = await edit({ redirect_uris: ['not a url'] });
      expect(wrong.status).toBe(400);
      const refusal = (await wrong.json()) as { message: string; field?: string };
      expect(refusal.message).toContain("'not a url'");
      expect(refusal.field).toBe('redirect_uris');
      const edited = await edit({ client_name: 'Dash 2', redirect_uris: ['https://dash.example/cb2'] });
      expect(edited.status).toBe(200);
      expect(((await edited.json()) as { client: unknown }).client).toMatchObject({
        client_name: 'Dash 2',
        redirect_uris: ['https://dash.example/cb2'],
      });
      const asUserEdit = await fetch(`${srv.url}/api/admin/oauth-clients/${client.client_id}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'evil' }),
      });
      expect(asUserEdit.status).toBe(403);
      // A new secret: shown in that answer, the old one gone.
      const renewed = await fetch(
        `${srv.url}/api/admin/oauth-clients/${client.client_id}/regenerate-secret`,
        {
          method: 'POST',
          headers: admin,
        },
      );
      expect(renewed.status).toBe(200);
      const next = ((await renewed.json()) as { client: { client_secret: string } }).client.client_secret;
      expect(next).toMatch(/^[\w-]{43}$/);
      expect(next).not.toBe(client.client_secret);
      const removed = await fetch(`${srv.url}/api/admin/oauth-clients/${client.client_id}`, {
        method: 'DELETE',
        headers: admin,
      });
      expect(removed.status).toBe(204);
    });
  });
}
