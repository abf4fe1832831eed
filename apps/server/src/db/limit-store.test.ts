import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { createLimiter } from '@engage/rate-limit';
import { limitStoreContract } from '@engage/rate-limit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresLimitStore } from './limit-store.js';
import { serverMigrations } from './migrations/index.js';

// The PostgreSQL store on every test database (PGlite speaks the same SQL; with TEST_DATABASE_URL
// the real server too), held to the same contract as the memory store.
for (const target of testDbTargets()) {
  describe(`the database limit store on ${target.name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await target.open(serverMigrations());
    });
    afterAll(() => db.close());

    limitStoreContract(() => postgresLimitStore(db));

    it('keeps one row per key in an UNLOGGED table and sweeps full buckets', async () => {
      let t = 50_000_000;
      const limiter = createLimiter(
        'sweep',
        { burst: 2, perWindow: 2, windowMs: 1_000 },
        {
          store: postgresLimitStore(db),
          now: () => t,
        },
      );
      for (let i = 0; i < 5; i++) await limiter.take('one');
      await limiter.take('two');
      const count = async () =>
        (await db.query<{ n: number }>(`select count(*)::int as n from rate_limits where key like 'sweep:%'`))
          .rows[0]!.n;
      expect(await count()).toBe(2);
      if (db.kind === 'postgres') {
        const { rows } = await db.query<{ relpersistence: string }>(
          `select relpersistence from pg_class where relname = 'rate_limits' and relnamespace = current_schema()::regnamespace`,
        );
        expect(rows[0]?.relpersistence).toBe('u');
      }
      t += 120_000; // both buckets full again; the next take sweeps
      await limiter.take('three');
      await expect.poll(count).toBe(1);
    });

    it('counts one limit across two stores (two instances) on one database', async () => {
      const spec = { burst: 10, perWindow: 10, windowMs: 60_000 };
      const a = createLimiter('shared', spec, { store: postgresLimitStore(db), now: () => 0 });
      const b = createLimiter('shared', spec, { store: postgresLimitStore(db), now: () => 0 });
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take('203.0.113.9')),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
    });
  });
}
