/**
 * The one algorithm of every limit: GCRA (the generic cell rate algorithm), which is a token bucket
 * kept as a single number per key, the "theoretical arrival time" (TAT). A bucket of `burst` tokens
 * refilled at `perWindow` per `windowMs` lets a hit through when, after it, the TAT is at most
 * `burst` emission intervals ahead of now. One number per key is what lets a database store apply a
 * hit in one atomic statement (stores/postgres in the server mirrors these lines in SQL).
 * @module
 */

/** `burst` hits at once, refilled at `perWindow` hits per `windowMs`. */
export interface RateSpec {
  burst: number;
  perWindow: number;
  windowMs: number;
}

/** What a hit (or a look) found: whether it may go ahead, else how long until it may. */
export interface Decision {
  allowed: boolean;
  /** 0 when allowed; else milliseconds until one hit is allowed again (a 429's Retry-After). */
  retryAfterMs: number;
}

/** The emission interval: milliseconds one token takes to come back. */
export const intervalMs = (spec: RateSpec) => spec.windowMs / spec.perWindow;

/** How far ahead of now the TAT may run: the whole bucket. */
export const toleranceMs = (spec: RateSpec) => spec.burst * intervalMs(spec);

/** The decision for one hit on a key whose TAT is `tat` (undefined: never seen, a full bucket). */
export function decide(tat: number | undefined, now: number, spec: RateSpec): Decision & { tat: number } {
  const next = Math.max(tat ?? now, now) + intervalMs(spec);
  const over = next - now - toleranceMs(spec);
  return over <= 0
    ? { allowed: true, retryAfterMs: 0, tat: next }
    : { allowed: false, retryAfterMs: Math.ceil(over), tat: tat ?? now };
}

/** The TAT after giving one token back (never below now: a bucket holds at most `burst`). */
export const refunded = (tat: number, now: number, spec: RateSpec) => Math.max(tat - intervalMs(spec), now);
