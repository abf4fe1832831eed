// Anonymous users were deleted only by later anonymous sign-ins, so a flood that
// stopped stayed in the database. Now a timer deletes them too: on the real database (PGlite, and
// PostgreSQL with TEST_DATABASE_URL) with fake timers, and wired into the running server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startServer, type RunningServer } from '../server.js';
import { ANONYMOUS_PRUNE_EVERY_MS, scheduleAnonymousRetention } from './anonymous-retention.js';
import { startAuthTestServer, type AuthTestServer } from './http/server-harness.js';

const DAY = 86_400_000;
const silent = { error: () => undefined };

for (const target of testDbTargets()) {
  describe(`anonymous users pruned on a timer (${target.name})`, () => {
    let db: Db;
    let srv: AuthTestServer;
    let clock = Date.now();

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startAuthTestServer(db, {
        env: { AUTH_ANONYMOUS: 'true', AUTH_ANONYMOUS_RETENTION_DAYS: '2' },
        now: () => clock,
      });
    }, 120_000);
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    const exists = async (id: string | undefined) =>
      (await db.query('select 1 from auth_users where id = $1', [id])).rows.length > 0;
    const anonymous = async () => {
      const { data, error } = await srv.client().auth.signInAnonymously();
      if (error) throw error;
      return data.user?.id;
    };

    it('deletes anonymous users past AUTH_ANONYMOUS_RETENTION_DAYS with no sign-in after the flood', async () => {
      // The flood, two days and a minute before the prune that removes it.
      const flood = [await anonymous(), await anonymous(), await anonymous()];
      clock += DAY;
      const young = await anonymous();
      const person = await srv.service.admin.create({ email: 'kept@example.com', password: 'kept-pass-12' });
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const retention = scheduleAnonymousRetention({
        prune: srv.service.pruneAnonymousUsers,
        logger: silent,
      });
      expect(await retention.runOnce()).toBe(0); // the run at start: nobody is old enough yet

      clock += DAY + 60_000;
      vi.advanceTimersByTime(ANONYMOUS_PRUNE_EVERY_MS - 1);
      expect(await exists(flood[0])).toBe(true); // not before its hour
      vi.advanceTimersByTime(1);
      await retention.stop(); // waits for the prune the timer started
      for (const id of flood) expect(await exists(id)).toBe(false);
      expect(await exists(young)).toBe(true);
      expect(await exists(person.id)).toBe(true);
      const sessions = await db.query('select 1 from auth_sessions where user_id = any($1::uuid[])', [flood]);
      expect(sessions.rows).toHaveLength(0);
      vi.useRealTimers();
    });
  });
}

describe('the anonymous prune schedule', () => {
  it('logs a failed prune, keeps the process up, and tries again at the next turn', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const errors: string[] = [];
    let calls = 0;
    const retention = scheduleAnonymousRetention({
      prune: async () => {
        calls++;
        if (calls === 1) throw new Error('database unavailable');
        return 0;
      },
      logger: { error: (msg) => errors.push(msg) },
    });
    expect(await retention.runOnce()).toBeNull();
    expect(errors).toEqual(['auth: deleting expired anonymous users failed']);
    vi.advanceTimersByTime(ANONYMOUS_PRUNE_EVERY_MS);
    expect(await retention.runOnce()).toBe(0);
    expect(calls).toBe(2);
    await retention.stop();
    vi.advanceTimersByTime(3 * ANONYMOUS_PRUNE_EVERY_MS);
    expect(calls).toBe(2); // stopped: no more turns
    vi.useRealTimers();
  });

  it('deletes a large backlog in batches within one turn', async () => {
    let left = 1_234;
    const retention = scheduleAnonymousRetention({
      prune: async (limit) => {
        const n = Math.min(limit, left);
        left -= n;
        return n;
      },
      logger: silent,
    });
    expect(await retention.runOnce()).toBe(1_234);
    await retention.stop();
  });
});

describe('the running server', () => {
  let server: RunningServer;
  let dataDir: string;

  // Starting takes a while (an on-disk PGlite, migrations, the bootstrap admin); the timer it starts
  // is a fake one, so the test can move an hour on.
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'engage-anon-retention-'));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    server = await startServer(
      parseConfig({
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: 'anon-retention-admin',
        AUTH_ANONYMOUS: 'true',
        AUTH_ANONYMOUS_RETENTION_DAYS: '30',
      }),
      createLogger('silent'),
    );
  }, 120_000);
  afterAll(async () => {
    vi.useRealTimers();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prunes expired anonymous users on its hourly timer, with no sign-in', async () => {
    // Left by a flood 31 days ago (after the run at start), and one from yesterday.
    const { rows } = await server.db.query<{ id: string; created_at: Date }>(
      `insert into auth_users (email, is_anonymous, created_at)
       values ('', true, now() - interval '31 days'), ('', true, now() - interval '1 day')
       returning id, created_at`,
    );
    const [old, recent] = rows.sort((a, b) => +a.created_at - +b.created_at).map((r) => r.id);
    const exists = async (id: string | undefined) =>
      (await server.db.query('select 1 from auth_users where id = $1', [id])).rows.length > 0;
    vi.advanceTimersByTime(ANONYMOUS_PRUNE_EVERY_MS);
    await vi.waitFor(async () => expect(await exists(old)).toBe(false), { timeout: 10_000 });
    expect(await exists(recent)).toBe(true);
  });
});
