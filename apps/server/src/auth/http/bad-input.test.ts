// Embedded auth: bad input answered with the contract status, and the rate limits over HTTP.
import { testDbTargets } from '@engage/db/testing';
import { isAuthApiError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { authServerContext, password } from './auth-harness.js';
import { authPost } from './passkey-harness.js';
import { startAuthTestServer } from './server-harness.js';

for (const target of testDbTargets()) {
  describe(`embedded auth with the official supabase-js on ${target.name}`, () => {
    const { srv, confirmedUser } = authServerContext(target, {
      env: { AUTH_REFRESH_REUSE_INTERVAL: '0' },
    });

    it('answers bad input with the contract status and code, never a 500', async () => {
      const post = (path: string, body: string, headers: Record<string, string> = {}) =>
        authPost(srv, path, body, headers);
      const malformed = await post('/signup', '{"email":');
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(await malformed.json()).toMatchObject({ code: 'bad_json' });
      // The parser's message quotes the text near the fault; the answer never does.
      const quoted = await post('/token?grant_type=password', '{"email":"a@b.co","password":hunter2pw}');
      expect(quoted.status).toBe(400);
      const quotedBody = await quoted.json();
      expect(quotedBody).toMatchObject({ code: 'bad_json' });
      expect(JSON.stringify(quotedBody)).not.toContain('hunter2');
      const wrongTypes = await post('/token?grant_type=password', '{"email":42,"password":[]}');
      expect(wrongTypes.status).toBe(400);
      expect(await wrongTypes.json()).toMatchObject({ code: 'validation_failed' });
      // PostgreSQL cannot store NUL in text or jsonb: refused up front, not a 500 from the database.
      for (const [path, body] of [
        ['/signup', { email: 'a\u0000@b.co', password }],
        ['/token?grant_type=refresh_token', { refresh_token: 'ab\u0000' }],
        ['/signup', { email: 'nul@example.com', password, data: { 'x\u0000': 'y' } }],
      ] as const) {
        const nul = await post(path, JSON.stringify(body));
        expect(nul.status).toBe(400);
        expect(await nul.json()).toMatchObject({ code: 'validation_failed' });
      }
      const grant = await post('/token?grant_type=magic', '{}');
      expect(grant.status).toBe(400);
      expect(await grant.json()).toMatchObject({ code: 'invalid_credentials' });
      const emptyRefresh = await post('/token?grant_type=refresh_token', '{"refresh_token":""}');
      expect(await emptyRefresh.json()).toMatchObject({ error: 'invalid_request' });
      const oldShape = await post('/token?grant_type=password', '{"email":"x@y.io","password":"nope12"}', {
        'X-Supabase-Api-Version': '',
      });
      expect(oldShape.headers.get('x-supabase-api-version')).toBeNull();
      expect(await oldShape.json()).toEqual({
        code: 400,
        error_code: 'invalid_credentials',
        msg: 'Invalid login credentials',
      });
      const wrongKey = await fetch(`${srv.url}/auth/v1/settings`, { headers: { apikey: 'wrong' } });
      expect(wrongKey.status).toBe(401);
      const settings = await fetch(`${srv.url}/auth/v1/settings`, { headers: { apikey: srv.anonKey } });
      expect(await settings.json()).toMatchObject({ external: { email: true }, mailer_autoconfirm: false });

      const { session } = await confirmedUser();
      const token = session?.access_token as string;
      const [head, body] = token.split('.');
      const claims = JSON.parse(Buffer.from(body as string, 'base64url').toString());
      const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, app_metadata: { role: 'admin' } })).toString('base64url')}.${token.split('.')[2]}`;
      const tampered = await srv.client().auth.getUser(forged);
      expect(tampered.error).toMatchObject({ status: 403, code: 'bad_jwt' });
      expect(await srv.verifyAccessToken(forged)).toBeNull();
      const noBearer = await fetch(`${srv.url}/auth/v1/user`, {
        headers: { apikey: srv.anonKey, 'X-Supabase-Api-Version': '2024-01-01' },
      });
      expect(noBearer.status).toBe(401);
      expect(await noBearer.json()).toMatchObject({ code: 'no_authorization' });
      const userBody = await (
        await fetch(`${srv.url}/auth/v1/user`, {
          headers: { apikey: srv.anonKey, Authorization: `Bearer ${token}` },
        })
      ).text();
      expect(userBody).not.toMatch(/argon2|encrypted_password/);
      const jwks = await fetch(`${srv.url}/auth/v1/.well-known/jwks.json`);
      expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
      const jwk = (await jwks.json()).keys[0];
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
      // Access tokens: ES256 with the published kid, valid 3600 s, tied to a session.
      expect(JSON.parse(Buffer.from(head as string, 'base64url').toString())).toMatchObject({
        alg: 'ES256',
        kid: jwk.kid,
      });
      expect(claims.exp - claims.iat).toBe(3600);
      expect(claims.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(claims).toMatchObject({ aud: 'authenticated', role: 'authenticated', is_anonymous: false });
      const health = await fetch(`${srv.url}/auth/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ name: 'GoTrue' });
      const cors = await fetch(`${srv.url}/auth/v1/token`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://elsewhere.test',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'apikey,x-supabase-api-version',
        },
      });
      expect(cors.headers.get('access-control-allow-headers')).toContain('x-supabase-api-version');
      expect(isAuthApiError(tampered.error)).toBe(true);
      // Last: the server stops reading an oversized body, which ends that connection.
      const big = await post(
        '/signup',
        JSON.stringify({ email: 'a@b.co', password, data: { x: 'y'.repeat(1_100_000) } }),
      );
      expect(big.status).toBe(413);
    });
  });
}

describe('embedded auth rate limits over HTTP', () => {
  it('answers 429 over_request_rate_limit once the per-IP token bucket is empty', async () => {
    const target = testDbTargets()[0];
    const db = await target!.open(serverMigrations());
    const srv = await startAuthTestServer(db, {
      rateLimits: { token: { burst: 3, perWindow: 3, windowMs: 300_000 } },
    });
    try {
      const client = srv.client();
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 4; i++) {
        const { error } = await client.auth.signInWithPassword({ email: `nobody${i}@example.com`, password });
        codes.push(error?.code);
      }
      expect(codes).toEqual([
        'invalid_credentials',
        'invalid_credentials',
        'invalid_credentials',
        'over_request_rate_limit',
      ]);
      const { error } = await client.auth.signInWithPassword({ email: 'x@example.com', password });
      expect(error).toMatchObject({ status: 429, message: 'Request rate limit reached' });
    } finally {
      await srv.close();
      await db.close();
    }
  });
});
