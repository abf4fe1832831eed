import type { SharedGeneration } from '../db/shared-generation.js';

/**
 * The Unanswered tab's scan, kept for a short while: opening the tab again within `ttlMs` answers
 * from memory instead of reading a thousand calls and chats through the provider once more. Saving
 * an answer or deleting a conversation drops it (`invalidate`), and a scan that was running then is
 * not kept (its result may predate the change). Callers asking while a scan runs share it. A failed
 * scan is never kept.
 *
 * Kept per process. With `shared` (several instances on one PostgreSQL), `invalidate` also bumps a
 * counter in the database and `get` reads it first (one primary-key lookup): a scan made before the
 * counter moved is not served, so a change made through one instance is seen by all at once. When
 * the counter cannot be read, nothing kept is served (a fresh scan, not kept either).
 * @module
 */

export const UNANSWERED_CACHE_MS = 60_000;

export interface CachedScan<T> {
  /** The cached result, or a new scan's. */
  get(scan: () => Promise<T>): Promise<T>;
  /** Drops the kept scan here, and (with `shared`) everywhere; resolves once the others can tell. */
  invalidate(): Promise<void>;
}

export interface CachedScanOptions {
  ttlMs?: number;
  now?: () => number;
  shared?: SharedGeneration;
  /** A failure to read or bump the shared counter (the scan itself goes on). */
  onSharedError?: (error: unknown) => void;
}

export function cachedScan<T>(options: CachedScanOptions = {}): CachedScan<T> {
  const ttl = options.ttlMs ?? UNANSWERED_CACHE_MS;
  const now = options.now ?? Date.now;
  const { shared } = options;
  let generation = 0;
  /** `sharedAt`: the shared counter when the scan started (null: unknown, so never served again). */
  let kept: { value: T; at: number; sharedAt: string | null } | null = null;
  let running: { promise: Promise<T>; generation: number; sharedAt: string | null } | null = null;

  /** Whether something made at shared counter `made` may be served now that it reads `current`. */
  const fresh = (made: string | null, sharedNow: string | null) =>
    !shared || (made !== null && made === sharedNow);

  const serve = (scan: () => Promise<T>, sharedNow: string | null): Promise<T> => {
    if (kept && now() - kept.at < ttl && fresh(kept.sharedAt, sharedNow)) return Promise.resolve(kept.value);
    if (running && running.generation === generation && fresh(running.sharedAt, sharedNow))
      return running.promise;
    const started = { generation, at: now() };
    const promise = scan().then((value) => {
      if (generation === started.generation) kept = { value, at: started.at, sharedAt: sharedNow };
      return value;
    });
    const entry = { promise, generation, sharedAt: sharedNow };
    running = entry;
    const done = () => {
      if (running === entry) running = null;
    };
    promise.then(done, done);
    return promise;
  };

  const sharedFailed = (error: unknown) => {
    options.onSharedError?.(error);
    return null;
  };

  return {
    get(scan) {
      if (!shared) return serve(scan, null);
      return shared.read().then(
        (sharedNow) => serve(scan, sharedNow),
        (error: unknown) => serve(scan, sharedFailed(error)),
      );
    },
    async invalidate() {
      generation += 1;
      kept = null;
      if (shared) await shared.bump().catch(sharedFailed);
    },
  };
}
