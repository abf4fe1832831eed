import { createHash } from 'node:crypto';
import type { Decision, RateSpec } from './gcra.js';
import type { LimitStore } from './store.js';

/** One named limit over a store: every limit of the server and the emulator is one of these. */
export interface Limiter {
  /** Counts one hit of `key`; not allowed when the bucket is empty (the caller answers 429). */
  take(key: string): Promise<Decision>;
  /** Whether a hit would be allowed, without counting one. */
  peek(key: string): Promise<Decision>;
  /** Gives back one counted hit (limits that count attempts first and forgive successes). */
  refund(key: string): Promise<void>;
}

const ALLOWED: Decision = { allowed: true, retryAfterMs: 0 };

/** Longer keys (an email address is the caller's text) are stored as their SHA-256. */
const MAX_KEY_LENGTH = 128;

/**
 * The stored key: the limit's name and the caller's key, bounded in length. A hashed key is marked
 * with `#` instead of `:`, so no short key can be written to land on a long key's row.
 */
export function storedKey(name: string, key: string): string {
  const full = `${name}:${key}`;
  return full.length <= MAX_KEY_LENGTH
    ? full
    : `${name}#${createHash('sha256').update(key).digest('base64url')}`;
}

export interface LimiterOptions {
  store: LimitStore;
  now?: () => number;
}

/**
 * A limit named `name` (its keys never meet another limit's), or no limit at all when `spec` is
 * null (a limit configured off).
 */
export function createLimiter(name: string, spec: RateSpec | null, options: LimiterOptions): Limiter {
  if (!spec) return { take: async () => ALLOWED, peek: async () => ALLOWED, refund: async () => undefined };
  if (!(spec.burst >= 1 && spec.perWindow > 0 && spec.windowMs > 0))
    throw new RangeError(`limit ${name}: burst must be at least 1, perWindow and windowMs positive`);
  const { store } = options;
  const now = options.now ?? Date.now;
  return {
    take: (key) => store.take(storedKey(name, key), spec, now()),
    peek: (key) => store.peek(storedKey(name, key), spec, now()),
    refund: (key) => store.refund(storedKey(name, key), spec, now()),
  };
}

/** Whole seconds for a Retry-After header: at least 1. */
export const retryAfterSeconds = (decision: Decision) => Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
