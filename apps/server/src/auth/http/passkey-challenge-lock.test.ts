// The lock behind the cap on pending passkey challenges never takes the server's pool (review
// finding): every `/passkeys/authentication/options` request (apikey only) waited for one global
// advisory lock while holding a pool connection, so a flood filled the pool and sign-in, refresh and
// everything else waited or got 503. Now an instance queues its saves in-process (one connection
// waits on the lock at most) and the wait is bounded: past it the request gets 429, never a 500/503.
// PostgreSQL only: the lock is PostgreSQL's (PGlite runs one transaction at a time).
import { openPostgres } from '@engage/db';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allMigrations } from '../../server.js';
import { authApiHeaders } from './passkey-harness.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const postgresTarget = testDbTargets().find((t) => t.name === 'postgres');
if (!postgresTarget)
  console.warn(
    '[auth-passkey-challenge-lock] skipped: TEST_DATABASE_URL is not set (the lock is PostgreSQL’s).',
  );

/** The key webauthn.ts locks (its CHALLENGE_CAP_LOCK). */
const LOCK_KEY = 'engage:webauthn-challenges';
const LOCK_TIMEOUT_MS = 2_000;
/** Well over the test database's pool (4 connections). */
const AT_ONCE = 30;

describe.skipIf(!postgresTarget)('the passkey challenges lock, held elsewhere (postgres)', () => {
  const url = process.env.TEST_DATABASE_URL as string;
  let db: Db;
  let srv: AuthTestServer;
  /** Another session: holds the lock, as a slow save on another instance would. */
  let holder: Db;
  /** A third session: watches pg_locks while the server's pool may be busy. */
  let observer: Db;

  beforeAll(async () => {
    db = await postgresTarget!.open(allMigrations());
    srv = await startAuthTestServer(db, { challengeLockTimeoutMs: LOCK_TIMEOUT_MS });
    holder = await openPostgres(url, { max: 1 });
    observer = await openPostgres(url, { max: 1 });
  });
  afterAll(async () => {
    await srv?.close();
    await holder?.close();
    await observer?.close();
    await db?.close();
  });

  const askOptions = async (): Promise<Response> =>
    srv.app.request('/auth/v1/passkeys/authentication/options', {
      method: 'POST',
      headers: authApiHeaders(srv),
      body: '{}',
    });

  /** Sessions waiting for the challenges lock right now. */
  const waiters = async () =>
    (
      await observer.query<{ n: number }>(
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and not granted
            and objid::bigint = (hashtext($1)::bigint & 4294967295)`,
        [LOCK_KEY],
      )
    ).rows[0]!.n;

  it('keeps the pool for other work while a flood waits, then answers the flood 429', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [LOCK_KEY]);
      locked();
      await released;
    });
    await isLocked;

    try {
      let settled = 0;
      const flood = Array.from({ length: AT_ONCE }, () => askOptions().finally(() => settled++));
      await vi.waitFor(async () => expect(await waiters()).toBeGreaterThan(0), { timeout: LOCK_TIMEOUT_MS });

      // Other database work of the server goes through the same pool while the flood waits.
      expect((await db.query<{ one: number }>('select 1 as one')).rows[0]!.one).toBe(1);
      expect(await waiters()).toBe(1);
      expect(settled).toBe(0);

      // The wait is bounded: every request of the flood ends with the rate limits' 429.
      const answers = await Promise.all(flood);
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: AT_ONCE }, () => 429));
      expect(await answers[0]!.json()).toMatchObject({ code: 'over_request_rate_limit' });
    } finally {
      // Even when an expectation failed: the server's waiters then end and the hooks can close.
      release();
      await holding;
    }
    // Once the lock is free, a request gets its challenge again.
    expect((await askOptions()).status).toBe(200);
  }, 20_000);
});
