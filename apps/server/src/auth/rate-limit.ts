/** A token bucket: `burst` requests at once, refilled at `perWindow` requests per `windowMs`. */
export interface BucketSpec {
  burst: number;
  perWindow: number;
  windowMs: number;
}

/** GoTrue's defaults (AUTH-CONTRACT §3). */
export const DEFAULT_LIMITS = {
  token: { burst: 30, perWindow: 150, windowMs: 5 * 60_000 },
  // Failed password attempts per address (not a GoTrue limit; slows guessing spread over many IPs).
  tokenPerEmail: { burst: 10, perWindow: 10, windowMs: 5 * 60_000 },
  signup: { burst: 30, perWindow: 30, windowMs: 5 * 60_000 },
  recover: { burst: 30, perWindow: 30, windowMs: 5 * 60_000 },
  verify: { burst: 30, perWindow: 30, windowMs: 5 * 60_000 },
  mfa: { burst: 15, perWindow: 15, windowMs: 60_000 },
} satisfies Record<string, BucketSpec>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
/** Per limit: a bucket spec, or null to turn that limit off. */
export type RateLimitOptions = Partial<Record<LimitName, BucketSpec | null>>;

export interface RateLimiter {
  /** Takes one token for `key`; false when the bucket is empty (the caller answers 429). */
  take(key: string): boolean;
  /** True when `key` still has a token, without taking it (limits that count only failures). */
  check(key: string): boolean;
  /** Milliseconds until `key` has a token again (0 when it has one now): the 429's Retry-After. */
  retryAfterMs(key: string): number;
}

/** Keeps at most this many keys; the least recently seen are dropped first. */
const MAX_KEYS = 50_000;

export function createRateLimiter(spec: BucketSpec | null, now: () => number = Date.now): RateLimiter {
  if (!spec) return { take: () => true, check: () => true, retryAfterMs: () => 0 };
  const ratePerMs = spec.perWindow / spec.windowMs;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (key: string) => {
    const t = now();
    const bucket = buckets.get(key) ?? { tokens: spec.burst, at: t };
    bucket.tokens = Math.min(spec.burst, bucket.tokens + (t - bucket.at) * ratePerMs);
    bucket.at = t;
    return bucket;
  };
  return {
    check: (key) => refill(key).tokens >= 1,
    retryAfterMs: (key) => Math.max(0, Math.ceil((1 - refill(key).tokens) / ratePerMs)),
    take(key) {
      const bucket = refill(key);
      buckets.delete(key);
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      buckets.set(key, bucket);
      if (buckets.size > MAX_KEYS) buckets.delete(buckets.keys().next().value as string);
      return allowed;
    },
  };
}

export type RateLimiters = Record<LimitName, RateLimiter>;

export function createRateLimiters(options: RateLimitOptions = {}, now?: () => number): RateLimiters {
  const names = Object.keys(DEFAULT_LIMITS) as LimitName[];
  return Object.fromEntries(
    names.map((name) => [
      name,
      createRateLimiter(name in options ? (options[name] ?? null) : DEFAULT_LIMITS[name], now),
    ]),
  ) as RateLimiters;
}
