/**
 * The Unanswered tab's scan, kept for a short while: opening the tab again within `ttlMs` answers
 * from memory instead of reading a thousand calls and chats through the provider once more. Saving
 * an answer or deleting a conversation drops it (`invalidate`), and a scan that was running then is
 * not kept (its result may predate the change). Callers asking while a scan runs share it. A failed
 * scan is never kept. Per process: another instance keeps its own for at most `ttlMs`.
 * @module
 */

export const UNANSWERED_CACHE_MS = 60_000;

export interface CachedScan<T> {
  /** The cached result, or a new scan's. */
  get(scan: () => Promise<T>): Promise<T>;
  invalidate(): void;
}

export function cachedScan<T>(options: { ttlMs?: number; now?: () => number } = {}): CachedScan<T> {
  const ttl = options.ttlMs ?? UNANSWERED_CACHE_MS;
  const now = options.now ?? Date.now;
  let generation = 0;
  let kept: { value: T; at: number } | null = null;
  let running: { promise: Promise<T>; generation: number } | null = null;

  return {
    get(scan) {
      if (kept && now() - kept.at < ttl) return Promise.resolve(kept.value);
      if (running && running.generation === generation) return running.promise;
      const started = { generation, at: now() };
      const promise = scan().then((value) => {
        if (generation === started.generation) kept = { value, at: started.at };
        return value;
      });
      const entry = { promise, generation };
      running = entry;
      const done = () => {
        if (running === entry) running = null;
      };
      promise.then(done, done);
      return promise;
    },
    invalidate() {
      generation += 1;
      kept = null;
    },
  };
}
