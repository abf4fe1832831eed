// Anonymous sign-in (AUTH_ANONYMOUS) through the official client, with its attacks: an
// anonymous user reaching admin or provider routes, a flood from one IPv6 /64, the cap and the
// pruning of never-upgraded users. On PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../../server.js';
import { NO_LIMITS } from '../rate-limit.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const password = 'correct horse 1';
let n = 0;
const newEmail = () => `anon${Date.now()}-${n++}@example.com`;
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;
const DAY = 86_400_000;

for (const target of testDbTargets()) {
  describe(`anonymous sign-in on ${target.name}`, () => {
    let db: Db;
    let off: AuthTestServer;
    let srv: AuthTestServer;
    let instant: AuthTestServer;
    let clock = Date.now();

    beforeAll(async () => {
      db = await target.open(allMigrations());
      off = await startAuthTestServer(db);
      srv = await startAuthTestServer(db, {
        env: { AUTH_ANONYMOUS: 'true' },
        // Only the anonymous limit, small, so the flood test is quick.
        rateLimits: { ...NO_LIMITS, anonymous: { burst: 20, perWindow: 20, windowMs: 3_600_000 } },
        now: () => clock,
      });
      instant = await startAuthTestServer(db, { env: { AUTH_ANONYMOUS: 'true', AUTH_AUTOCONFIRM: 'true' } });
    });
    afterAll(async () => {
      await Promise.all([off?.close(), srv?.close(), instant?.close()]);
      await db?.close();
    });

    const anonymousCount = async () =>
      (await db.query<{ n: number }>('select count(*)::int as n from auth_users where is_anonymous')).rows[0]
        ?.n ?? 0;

    it('is off by default: GoTrue\u2019s 422 anonymous_provider_disabled', async () => {
      const { data, error } = await off.client().auth.signInAnonymously();
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' });
      expect(error?.message).toBe('Anonymous sign-ins are disabled');
      const settings = (await (
        await fetch(`${off.url}/auth/v1/settings`, { headers: { apikey: off.anonKey } })
      ).json()) as { external: Record<string, boolean> };
      expect(settings.external.anonymous_users).toBe(false);
    });

    it('gives an anonymous session: is_anonymous in the user and the token, no address, no identity', async () => {
      const client = instant.client();
      const { data, error } = await client.auth.signInAnonymously({ options: { data: { info: 'x' } } });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        is_anonymous: true,
        email: '',
        role: 'authenticated',
        identities: [],
        app_metadata: { provider: 'anonymous', providers: ['anonymous'] },
      });
      expect(data.user?.user_metadata).toEqual({ info: 'x' });
      const claims = claimsOf(data.session?.access_token as string);
      expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated', aal: 'aal1' });
      expect((claims.amr as { method: string }[])[0]?.method).toBe('anonymous');
      const me = await client.auth.getUser();
      expect(me.data.user?.id).toBe(data.user?.id);
      const settings = (await (
        await fetch(`${instant.url}/auth/v1/settings`, { headers: { apikey: instant.anonKey } })
      ).json()) as { external: Record<string, boolean> };
      expect(settings.external.anonymous_users).toBe(true);
    });

    it('refuses what needs an address: reauthenticate, a password alone, MFA', async () => {
      const client = srv.client();
      await client.auth.signInAnonymously();
      const reauth = await client.auth.reauthenticate();
      expect(reauth.error).toMatchObject({ status: 400, code: 'validation_failed' });
      expect(reauth.error?.message).toBe(
        'Reauthentication requires the user to have an email or a phone number',
      );
      const pw = await client.auth.updateUser({ password });
      expect(pw.error).toMatchObject({ status: 422, code: 'validation_failed' });
      expect(pw.error?.message).toBe(
        'Updating password of an anonymous user without an email or phone is not allowed',
      );
      const mfa = await client.auth.mfa.enroll({ factorType: 'totp' });
      expect(mfa.error).toMatchObject({ status: 403, code: 'no_authorization' });
    });

    it('upgrades by updateUser({email, password}) and the mailed link, keeping its id', async () => {
      const client = srv.client();
      const { data } = await client.auth.signInAnonymously();
      const id = data.user?.id as string;
      const email = newEmail();
      const pending = await client.auth.updateUser({ email, password });
      expect(pending.error).toBeNull();
      expect(pending.data.user).toMatchObject({ id, is_anonymous: true, email: '', new_email: email });
      const mail = await srv.lastMail(email);
      expect(mail?.kind).toBe('email_change');
      expect(mail?.subject).toBe('Confirm your email address');
      // No current address: one mail only, and the one link completes the change.
      expect(await srv.mailCount(email)).toBe(1);
      const res = await fetch(mail?.link as string, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const params = new URLSearchParams(new URL(res.headers.get('location') as string).hash.slice(1));
      expect(params.get('access_token')).toBeTruthy();
      const signedIn = await srv.client().auth.signInWithPassword({ email, password });
      expect(signedIn.error).toBeNull();
      expect(signedIn.data.user).toMatchObject({
        id,
        email,
        is_anonymous: false,
        app_metadata: { provider: 'email' },
      });
      expect(claimsOf(signedIn.data.session?.access_token as string).is_anonymous).toBe(false);
    });

    it('with autoconfirm, updateUser({email}) makes the account permanent at once', async () => {
      const client = instant.client();
      const { data } = await client.auth.signInAnonymously();
      const email = newEmail();
      const { data: updated, error } = await client.auth.updateUser({ email });
      expect(error).toBeNull();
      expect(updated.user).toMatchObject({ id: data.user?.id, email, is_anonymous: false });
      expect(updated.user?.email_confirmed_at).toBeTruthy();
      const taken = await instant.client();
      await taken.auth.signInAnonymously();
      const again = await taken.auth.updateUser({ email });
      expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
    });

    it('attack: an anonymous user never reaches admin or operator routes, even given the role', async () => {
      const client = srv.client();
      const { data } = await client.auth.signInAnonymously();
      const token = data.session?.access_token as string;
      const id = data.user?.id as string;
      // Someone with the service key writes the role into its app_metadata: it still counts for nothing.
      const grant = await srv.client('service').auth.admin.updateUserById(id, {
        app_metadata: { role: 'admin' },
      });
      expect(grant.error).toBeNull();
      const bearer = { Authorization: `Bearer ${token}` };
      const adminApi = await fetch(`${srv.url}/api/admin/users`, { headers: bearer });
      expect(adminApi.status).toBe(403);
      const provider = await fetch(`${srv.url}/api/provider/assistant`, { headers: bearer });
      expect(provider.status).toBe(403);
      expect(((await provider.json()) as { error: string }).error).toBe('operator_required');
      expect(await srv.verifyAccessToken(token)).toMatchObject({ role: 'user', isAnonymous: true });
      const gotrueAdmin = await fetch(`${srv.url}/auth/v1/admin/users`, {
        headers: { ...bearer, apikey: srv.anonKey },
      });
      expect(gotrueAdmin.status).toBe(403);
      expect(((await gotrueAdmin.json()) as { error_code: string }).error_code).toBe('not_admin');
    });

    it('attack: an anonymous session is a visitor: no members key, no sign-in-only assistants', async () => {
      const { data } = await srv.client().auth.signInAnonymously();
      const bearer = { Authorization: `Bearer ${data.session?.access_token as string}` };
      const provider = async (headers: Record<string, string>) =>
        ((await (await fetch(`${srv.url}/config.json`, { headers })).json()) as { provider: object })
          .provider;
      expect(await provider(bearer)).not.toHaveProperty('membersPublicKey');
      // A member's session does get it: the difference is the account, not the token.
      const email = newEmail();
      await srv.service.admin.create({ email, password, email_confirm: true });
      const member = await srv.client().auth.signInWithPassword({ email, password });
      const memberBearer = { Authorization: `Bearer ${member.data.session?.access_token as string}` };
      expect(await provider(memberBearer)).toHaveProperty('membersPublicKey');

      const call = (headers: Record<string, string>, assistantId: string, server = srv) =>
        fetch(`${server.url}/api/calls/websocket`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ assistantId }),
        });
      for (const assistantId of ['asst_ediscovery', 'asst_onboarding']) {
        const refused = await call(bearer, assistantId);
        expect(refused.status, assistantId).toBe(401);
        expect(await refused.json()).toMatchObject({ error: 'unauthorized' });
        const ok = await call(memberBearer, assistantId);
        expect(ok.status, `${assistantId} ${await ok.clone().text()}`).toBe(201);
      }
      expect((await call(bearer, 'asst_index')).status).toBe(201);
    });

    it('attack: an anonymous session starts no call when visitors may not (WEBSOCKET_CALLS_ANONYMOUS=false)', async () => {
      const closed = await startAuthTestServer(db, {
        env: { AUTH_ANONYMOUS: 'true', WEBSOCKET_CALLS_ANONYMOUS: 'false' },
      });
      try {
        const { data } = await closed.client().auth.signInAnonymously();
        const res = await fetch(`${closed.url}/api/calls/websocket`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${data.session?.access_token as string}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ assistantId: 'asst_index' }),
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({
          error: 'unauthorized',
          message: 'Sign in to start a call.',
        });
      } finally {
        await closed.close();
      }
    });

    it('registers no passkey for an anonymous user, as GoTrue: 403 no_authorization', async () => {
      const client = srv.client();
      await client.auth.signInAnonymously();
      const options = await client.auth.passkey.startRegistration();
      expect(options.error).toMatchObject({ status: 403, code: 'no_authorization' });
      const verify = await client.auth.passkey.verifyRegistration({
        challengeId: '00000000-0000-4000-8000-000000000000',
        credential: {} as never,
      });
      expect(verify.error).toMatchObject({ status: 403, code: 'no_authorization' });
      expect(
        (
          await db.query(
            'select 1 from auth_webauthn_challenges where user_id is not null and user_id in (select id from auth_users where is_anonymous)',
          )
        ).rows,
      ).toEqual([]);
    });

    it('attack: a flood from many addresses of one IPv6 /64 is cut off; another /64 is not', async () => {
      const ctx = (i: number, net = '2001:db8:aa:1') => ({ ip: `${net}::${i.toString(16)}` });
      for (let i = 1; i <= 20; i++) await srv.service.signup({ data: {} }, undefined, ctx(i));
      await expect(srv.service.signup({ data: {} }, undefined, ctx(999))).rejects.toMatchObject({
        status: 429,
        code: 'over_request_rate_limit',
      });
      await expect(srv.service.signup({}, undefined, ctx(1, '2001:db8:aa:2'))).resolves.toMatchObject({
        user: { is_anonymous: true },
      });
    });

    it('refuses oversized metadata, and caps the anonymous users at once', async () => {
      const big = { blob: 'x'.repeat(20_000) };
      await expect(srv.service.signup({ data: big }, undefined, { ip: '192.0.2.7' })).rejects.toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
      const capped = await startAuthTestServer(db, {
        env: { AUTH_ANONYMOUS: 'true', AUTH_ANONYMOUS_MAX_USERS: String((await anonymousCount()) + 1) },
      });
      try {
        const first = await capped.client().auth.signInAnonymously();
        expect(first.error).toBeNull();
        const refused = await capped.client().auth.signInAnonymously();
        expect(refused.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      } finally {
        await capped.close();
      }
    });

    it('caps metadata at 16 KiB on every path that writes it, for every kind of user, merges included', async () => {
      const client = srv.client();
      await client.auth.signInAnonymously();
      const big = { blob: 'x'.repeat(900_000) };
      const refused = await client.auth.updateUser({ data: big });
      expect(refused.error).toMatchObject({ status: 400, code: 'validation_failed' });
      // Patches under the cap each, adding up past it: the second is refused, nothing half-written.
      expect((await client.auth.updateUser({ data: { a: 'x'.repeat(10_000) } })).error).toBeNull();
      const second = await client.auth.updateUser({ data: { b: 'x'.repeat(10_000) } });
      expect(second.error).toMatchObject({ status: 400, code: 'validation_failed' });
      const stored = await client.auth.getUser();
      expect(Object.keys(stored.data.user?.user_metadata ?? {})).toEqual(['a']);
      // Replacing a key with a smaller value is fine.
      expect((await client.auth.updateUser({ data: { a: 'short' } })).error).toBeNull();

      const email = newEmail();
      const signup = await srv.client().auth.signUp({ email, password, options: { data: big } });
      expect(signup.error).toMatchObject({ status: 400, code: 'validation_failed' });
      expect((await db.query('select 1 from auth_users where email = $1', [email])).rows).toEqual([]);
      const admin = srv.client('service').auth.admin;
      const created = await admin.createUser({ email, password, user_metadata: big });
      expect(created.error).toMatchObject({ status: 400 });
      const ok = await admin.createUser({ email, password, user_metadata: { a: 'x'.repeat(10_000) } });
      expect(ok.error).toBeNull();
      const merged = await admin.updateUserById(ok.data.user!.id, {
        user_metadata: { b: 'x'.repeat(10_000) },
      });
      expect(merged.error).toMatchObject({ status: 400 });
      const appMeta = await admin.updateUserById(ok.data.user!.id, { app_metadata: big });
      expect(appMeta.error).toMatchObject({ status: 400 });
    });

    it('prunes anonymous users never upgraded after AUTH_ANONYMOUS_RETENTION_DAYS (30)', async () => {
      const { data: old } = await srv.client().auth.signInAnonymously();
      const keeper = srv.client();
      const { data: upgraded } = await keeper.auth.signInAnonymously();
      await db.query(`update auth_users set is_anonymous = false, email = $2 where id = $1`, [
        upgraded.user?.id,
        newEmail(),
      ]);
      clock += 29 * DAY;
      await srv.client().auth.signInAnonymously({ options: { data: {} } });
      const exists = async (id: string | undefined) =>
        ((await db.query('select 1 from auth_users where id = $1', [id])).rows.length as number) > 0;
      expect(await exists(old.user?.id)).toBe(true);
      clock += 2 * DAY;
      // Another address: the flood test spent this one's allowance.
      await srv.service.signup({}, undefined, { ip: '198.51.100.9' });
      expect(await exists(old.user?.id)).toBe(false);
      expect(await exists(upgraded.user?.id)).toBe(true);
      // Its session went with it.
      const { rows } = await db.query('select 1 from auth_sessions where user_id = $1', [old.user?.id]);
      expect(rows).toHaveLength(0);
    });
  });
}
