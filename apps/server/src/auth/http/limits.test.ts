import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

// The auth limits over real sockets: the address is the socket's (never X-Forwarded-For), an
// IPv4-mapped IPv6 socket address is its IPv4 address, and an IPv6 one counts by its /64.
describe('auth limits by socket address over HTTP', () => {
  let db: Db;
  let srv: AuthTestServer;
  let dualStack: ReturnType<typeof serve>;
  let dualPort: number;

  beforeAll(async () => {
    db = await testDbTargets()[0]!.open(serverMigrations());
    srv = await startAuthTestServer(db, {
      rateLimits: { verify: { burst: 2, perWindow: 2, windowMs: 300_000 } },
    });
    // The same app on '::' (IPv4 and IPv6): a 127.0.0.1 client arrives as ::ffff:127.0.0.1 there.
    dualStack = await new Promise((resolve) => {
      const s = serve({ fetch: srv.app.fetch, port: 0, hostname: '::' }, () => resolve(s));
    });
    dualPort = (dualStack.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => dualStack.close(resolve));
    await srv.close();
    await db.close();
  });

  const verify = (base: string, forwardedFor: string) =>
    fetch(`${base}/auth/v1/verify`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: srv.anonKey, 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify({ token_hash: 'a'.repeat(56), type: 'recovery' }),
    }).then((res) => res.status);

  it('counts 127.0.0.1 as one caller whatever X-Forwarded-For says, also when it arrives IPv4-mapped', async () => {
    expect(await verify(srv.url, '203.0.113.1')).toBe(403);
    expect(await verify(srv.url, '203.0.113.2')).toBe(403);
    expect(await verify(`http://127.0.0.1:${dualPort}`, '203.0.113.3')).toBe(429);
    expect(await verify(srv.url, '2001:db8::1')).toBe(429);
    // ::1 is another caller (IPv6, its own /64).
    expect(await verify(`http://[::1]:${dualPort}`, '203.0.113.1')).toBe(403);
  });
});
