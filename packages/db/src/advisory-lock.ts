import type { Queryable } from './types.js';

/**
 * A transaction-scoped PostgreSQL advisory lock on a hash of `key`, waited for at most `timeoutMs`
 * (then the query fails with SQLSTATE 55P03, see isLockTimeout). It goes with the transaction, so a
 * crashed instance never leaves it held; the timeout is SET LOCAL, so the pooled connection keeps
 * its defaults. Callers queue in-process first (keyed-queue.ts): one connection per instance waits.
 */
export async function advisoryXactLock(tx: Queryable, key: string, timeoutMs: number): Promise<void> {
  await tx.query(`select set_config('lock_timeout', $1, true)`, [`${Math.max(1, Math.ceil(timeoutMs))}ms`]);
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [key]);
}

/** PostgreSQL's lock_not_available: an advisory lock's wait ran out. */
export const isLockTimeout = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === '55P03';
