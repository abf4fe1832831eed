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
          user: { id: 'u1', email: 'a@x.io', raw_app_meta_data: meta(stored) } as unknown as UserRow,
        };
      },
    } as unknown as Pick<AuthService, 'authenticate'>;
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
    let sign: (appMetadata: Record<string, unknown>) => Promise<string>;

    beforeAll(async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256');
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
      sign = (appMetadata) =>
        new SignJWT({ email: 'h@x.io', app_metadata: appMetadata })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setSubject('u2')
          .setAudience('authenticated')
          .setExpirationTime('5m')
          .sign(privateKey);
      server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: () => Response.json({ keys: [jwk] }), port: 0, hostname: '127.0.0.1' }, () =>
          resolve(s),
        );
      });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('from the JWT app_metadata checked against the JWKS', async () => {
      const verify = createVerifyAccessToken({ mode: 'hosted', supabaseUrl: url, anonKey: 'anon' });
      for (const [role, expected] of cases)
        expect((await verify(await sign(meta(role))))?.role, JSON.stringify(role)).toBe(expected);
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
