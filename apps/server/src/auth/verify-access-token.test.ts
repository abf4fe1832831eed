import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError } from './errors.js';
import type { AuthService } from './service.js';
import type { UserRow } from './users.js';
import { createVerifyAccessToken } from './verify-access-token.js';

// What app_metadata.role may hold, and the role the server then grants: only 'admin' and
// 'operator' count; anything else (another case, another type, a list) is a plain user.
const cases: [unknown, 'admin' | 'operator' | 'user'][] = [
  ['admin', 'admin'],
  ['operator', 'operator'],
  [undefined, 'user'],
  ['user', 'user'],
  ['Admin', 'user'],
  ['OPERATOR', 'user'],
  [['admin'], 'user'],
  [true, 'user'],
  ['superuser', 'user'],
];
const meta = (role: unknown): Record<string, unknown> => (role === undefined ? {} : { role });

describe('createVerifyAccessToken: the role', () => {
  it('embedded: from the user row as stored now', async () => {
    let stored: unknown;
    // Only the user row of authenticate's answer is read.
    const service = {
      authenticate: async (token: string | null) => {
        if (token !== 'ok') throw new AuthError(403, 'bad_jwt', 'invalid JWT');
        return {
          claims: { aal: 'aal1' },
          session: { aal: 'aal1' },
          user: { id: 'u1', email: 'a@x.io', raw_app_meta_data: meta(stored) } as unknown as UserRow,
        };
      },
      hasVerifiedFactor: async () => false,
    } as unknown as Pick<AuthService, 'authenticate' | 'hasVerifiedFactor'>;
    const verify = createVerifyAccessToken({ mode: 'embedded', service });
    for (const [role, expected] of cases) {
      stored = role;
      expect((await verify('ok'))?.role, JSON.stringify(role)).toBe(expected);
    }
    expect(await verify('forged')).toBeNull();
  });

  describe('hosted', () => {
    let server: ServerType;
    let url: string;
    let sign: (appMetadata: Record<string, unknown>, claims?: Record<string, unknown>) => Promise<string>;
    /** What the fake GoTrue's `GET /auth/v1/user` answers with (status, factors). */
    let userAnswer: { status: number; factors?: { status: string }[] } = { status: 200 };
    let userCalls = 0;

    beforeAll(async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256');
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
      sign = (appMetadata, claims = {}) =>
        new SignJWT({ email: 'h@x.io', app_metadata: appMetadata, ...claims })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setSubject('u2')
          .setAudience('authenticated')
          .setExpirationTime('5m')
          .sign(privateKey);
      server = await new Promise<ServerType>((resolve) => {
        const fetch = (request: Request) => {
          if (!new URL(request.url).pathname.endsWith('/auth/v1/user')) return Response.json({ keys: [jwk] });
          userCalls++;
          const { status, factors } = userAnswer;
          return Response.json({ id: 'u2', email: 'h@x.io', ...(factors ? { factors } : {}) }, { status });
        };
        const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('from the JWT app_metadata checked against the JWKS', async () => {
      const verify = createVerifyAccessToken({ mode: 'hosted', supabaseUrl: url, anonKey: 'anon' });
      for (const [role, expected] of cases)
        expect((await verify(await sign(meta(role))))?.role, JSON.stringify(role)).toBe(expected);
    });

    it('the assurance level: aal from the token, factors asked of GoTrue now for an aal1 token', async () => {
      const verify = createVerifyAccessToken({ mode: 'hosted', supabaseUrl: url, anonKey: 'anon' });
      const aal1 = await sign({ role: 'admin' }, { aal: 'aal1' });
      // A factor enrolled after the token was issued counts: GoTrue's user record says so.
      userAnswer = { status: 200, factors: [{ status: 'unverified' }, { status: 'verified' }] };
      expect(await verify(aal1)).toMatchObject({ role: 'admin', aal: 'aal1', hasVerifiedFactor: true });
      userAnswer = { status: 200, factors: [{ status: 'unverified' }] };
      expect(await verify(aal1)).toMatchObject({ aal: 'aal1', hasVerifiedFactor: false });
      userAnswer = { status: 200 };
      expect(await verify(aal1)).toMatchObject({ aal: 'aal1', hasVerifiedFactor: false });
      // GoTrue refusing the token (a revoked session) or failing: not signed in.
      userAnswer = { status: 403 };
      expect(await verify(aal1)).toBeNull();
      // An aal2 token used its factor: no extra request.
      const before = userCalls;
      expect(await verify(await sign({ role: 'admin' }, { aal: 'aal2' }))).toMatchObject({
        aal: 'aal2',
        hasVerifiedFactor: true,
      });
      expect(userCalls).toBe(before);
      userAnswer = { status: 200 };
    });

    it('from GET /auth/v1/user for a legacy HS256 token', async () => {
      let role: unknown;
      const verify = createVerifyAccessToken({
        mode: 'hosted',
        supabaseUrl: url,
        anonKey: 'anon',
        fetch: async () => Response.json({ id: 'u3', email: 'l@x.io', app_metadata: meta(role) }),
      });
      const legacy = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.e30.sig`;
      for (const [value, expected] of cases) {
        role = value;
        expect((await verify(legacy))?.role, JSON.stringify(value)).toBe(expected);
      }
    });
  });
});

describe('createVerifyAccessToken: the assurance level (embedded)', () => {
  it('aal2 only when the token and its session both say so; factors read at request time', async () => {
    let claim = 'aal2';
    let sessionAal = 'aal2';
    let factor = false;
    const service = {
      authenticate: async () => ({
        claims: { aal: claim },
        session: { aal: sessionAal },
        user: { id: 'u1', email: 'a@x.io', raw_app_meta_data: {} } as unknown as UserRow,
      }),
      hasVerifiedFactor: async () => factor,
    } as unknown as Pick<AuthService, 'authenticate' | 'hasVerifiedFactor'>;
    const verify = createVerifyAccessToken({ mode: 'embedded', service });
    expect(await verify('t')).toMatchObject({ aal: 'aal2', hasVerifiedFactor: false });
    factor = true;
    expect(await verify('t')).toMatchObject({ aal: 'aal2', hasVerifiedFactor: true });
    sessionAal = 'aal1'; // the factor was removed: GoTrue downgrades the session
    expect(await verify('t')).toMatchObject({ aal: 'aal1' });
    sessionAal = 'aal2';
    claim = 'aal1'; // an older token of a session upgraded since
    expect(await verify('t')).toMatchObject({ aal: 'aal1' });
  });
});
