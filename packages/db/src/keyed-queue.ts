/**
 * Turns per key in this process: a promise chain per key, so callers of one key run one at a time,
 * in the order they came, whether the one before them resolved or threw. Used in front of PostgreSQL
 * advisory locks (conversations/assistant-lock.ts, auth/webauthn.ts), so an instance holds at most one
 * pool connection per key while it waits for the lock, and on PGlite (one session, where an advisory
 * lock is re-entrant) as the whole lock.
 * @module
 */

export type KeyedQueue = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export function keyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      // The last in the chain cleans up: the map holds only keys with a turn in flight.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
