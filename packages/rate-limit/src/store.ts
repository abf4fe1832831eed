import { decide, refunded, type Decision, type RateSpec } from './gcra.js';

/**
 * Where the limiter keeps its one number per key. Each method is one atomic step, so any number of
 * callers (or server instances sharing one database) never let more through than the spec allows.
 */
export interface LimitStore {
  /** Takes one token of `key` when the spec allows it. */
  take(key: string, spec: RateSpec, now: number): Promise<Decision>;
  /** Whether a take would be allowed now, without taking. */
  peek(key: string, spec: RateSpec, now: number): Promise<Decision>;
  /** Gives one token back (a counted failure turned out to be a success). */
  refund(key: string, spec: RateSpec, now: number): Promise<void>;
}

/** Keys kept at once by the memory store. */
export const DEFAULT_MAX_KEYS = 100_000;

/**
 * The store of one process (the default, and with PGlite): a Map of TATs. Past `maxKeys`, full
 * buckets (a TAT in the past, the same as no entry) are dropped first, then the least recently hit,
 * so a flood of new keys costs its sender memory only up to the bound.
 */
export function memoryLimitStore(options: { maxKeys?: number } = {}): LimitStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const tats = new Map<string, number>();
  const trim = (now: number) => {
    if (tats.size <= maxKeys) return;
    for (const [key, tat] of tats) if (tat <= now) tats.delete(key);
    for (const key of tats.keys()) {
      if (tats.size <= maxKeys) break;
      tats.delete(key);
    }
  };
  return {
    async take(key, spec, now) {
      const { tat, ...decision } = decide(tats.get(key), now, spec);
      tats.delete(key); // re-inserted last: the Map's order is the recency order
      tats.set(key, tat);
      trim(now);
      return decision;
    },
    async peek(key, spec, now) {
      const { tat: _unchanged, ...decision } = decide(tats.get(key), now, spec);
      return decision;
    },
    async refund(key, spec, now) {
      const tat = tats.get(key);
      if (tat !== undefined) tats.set(key, refunded(tat, now, spec));
    },
  };
}
