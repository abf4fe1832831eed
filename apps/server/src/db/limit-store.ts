import type { Db } from '@engage/db';
import {
  decide,
  intervalMs,
  memoryLimitStore,
  toleranceMs,
  type Decision,
  type LimitStore,
  type RateSpec,
} from '@engage/rate-limit';

/** Rows of full buckets are deleted at most this often (by whichever instance hits first). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The limiter's store in PostgreSQL (`rate_limits`, migration core/0002): each take is ONE atomic
 * statement (insert or update of the key's row, GCRA as in `@engage/rate-limit`'s gcra.ts), so
 * concurrent requests on any number of instances never let more through than one process would.
 */
export function postgresLimitStore(db: Db): LimitStore {
  let lastSweep = Number.NEGATIVE_INFINITY;
  const sweep = (now: number) => {
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    // A full bucket is the same as no row. Best effort: a failed sweep is retried a minute later.
    db.query('delete from rate_limits where tat < $1', [now]).catch(() => undefined);
  };
  /** The same rule as the memory store (gcra.ts), for a TAT read back from the table. */
  const decision = (tat: number | undefined, now: number, spec: RateSpec): Decision => {
    const { allowed, retryAfterMs } = decide(tat, now, spec);
    return { allowed, retryAfterMs };
  };
  return {
    async take(key, spec, now) {
      const { rows } = await db.query<{ tat: number; ok: boolean }>(
        `insert into rate_limits as r (key, tat, ok) values ($1, $2::float8 + $3::float8, true)
         on conflict (key) do update set
           ok = greatest(r.tat, $2::float8) + $3::float8 - $2::float8 <= $4::float8,
           tat = case when greatest(r.tat, $2::float8) + $3::float8 - $2::float8 <= $4::float8
                      then greatest(r.tat, $2::float8) + $3::float8 else r.tat end
         returning tat, ok`,
        [key, now, intervalMs(spec), toleranceMs(spec)],
      );
      sweep(now);
      const row = rows[0]!;
      if (row.ok) return { allowed: true, retryAfterMs: 0 };
      return decision(row.tat, now, spec);
    },
    async peek(key, spec, now) {
      const { rows } = await db.query<{ tat: number }>('select tat from rate_limits where key = $1', [key]);
      return decision(rows[0]?.tat, now, spec);
    },
    async refund(key, spec, now) {
      await db.query('update rate_limits set tat = greatest(tat - $3::float8, $2::float8) where key = $1', [
        key,
        now,
        intervalMs(spec),
      ]);
    },
  };
}

/**
 * The store every limit of this server uses: PostgreSQL's table with DATABASE_URL (limits hold across
 * instances), memory with PGlite (one process owns the data directory anyway, and a hit costs no query).
 */
export function limitStoreFor(db: Db): LimitStore {
  return db.kind === 'postgres' ? postgresLimitStore(db) : memoryLimitStore();
}
