import { advisoryXactLock } from '@engage/db';
import { keyedQueue } from '@engage/db';
import type { Db } from '@engage/db';

/**
 * One writer at a time per assistant's Answers document. Two locks, one inside the other:
 * - in this process, a promise chain per key (packages/db/src/keyed-queue.ts; PGlite is one process and one session, where a
 *   PostgreSQL advisory lock is re-entrant and so would let two saves of the same session through);
 * - on PostgreSQL, a transaction-scoped advisory lock on a hash of the key, so several instances
 *   over one database also take turns. It goes with the transaction: a crashed instance never
 *   leaves it held. Taken after the in-process turn, so an instance holds at most one connection
 *   per key while it waits.
 * Keys are only ever the site's own assistant ids (ASSISTANT_ID_*): conversations/routes.ts
 * refuses any other id before taking a lock, so neither the map of queues nor the advisory locks
 * can be filled by callers inventing ids.
 * @module
 */

export type AssistantLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

/** The advisory-lock namespace of the Answers documents (the key is hashed with hashtext). */
const NAMESPACE = 'engage:answers:';

export interface AssistantLockOptions {
  /**
   * Longest wait (ms) for another instance's lock on PostgreSQL; then the wait fails with SQLSTATE
   * 55P03 (lock_not_available), which the route answers as "save in progress". Below the pool's
   * statement timeout (8 s), so a wait never looks like an unreachable database.
   */
  lockTimeoutMs?: number;
}

const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

export function assistantLock(db: Db, options: AssistantLockOptions = {}): AssistantLock {
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const inProcess = keyedQueue();

  return (key, fn) =>
    inProcess(key, () =>
      db.kind === 'postgres'
        ? db.transaction(async (tx) => {
            await advisoryXactLock(tx, `${NAMESPACE}${key}`, lockTimeoutMs);
            return fn();
          })
        : // PGlite: one process, and its single session would deadlock with the provider's own
          // queries behind an open transaction; the in-process turn is the whole lock.
          fn(),
    );
}
