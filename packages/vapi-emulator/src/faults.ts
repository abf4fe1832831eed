import type { MiddlewareHandler } from 'hono';
import { fail } from './http.js';

/**
 * Fault injection for tests of clients: read on every request, so a test may change the object
 * it passed in while the emulator runs.
 */
export interface EmulatorFaults {
  /** Added before every API request is handled. */
  latencyMs?: number;
  /**
   * Bursts of 429 with Retry-After: the first `burst` requests are refused, then `every` pass, then
   * the next `burst` are refused, and so on. Without `every`, only the first burst. Counting starts
   * when a new object is assigned.
   */
  rateLimit?: { burst: number; every?: number; retryAfterSeconds?: number };
  /** Share of requests (0–1) answered 503. */
  errorRate?: number;
  /** Random source for errorRate (default Math.random). */
  random?: () => number;
}

export function faultInjection(faults: EmulatorFaults | undefined): MiddlewareHandler {
  let seen = 0;
  let counting: EmulatorFaults['rateLimit'];
  return async (_c, next) => {
    if (!faults) return next();
    if (faults.latencyMs) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    const limit = faults.rateLimit;
    if (limit && limit.burst > 0) {
      // A new rateLimit object starts a new schedule.
      if (limit !== counting) {
        counting = limit;
        seen = 0;
      }
      const n = seen++;
      const limited =
        limit.every === undefined ? n < limit.burst : n % (limit.burst + limit.every) < limit.burst;
      if (limited) {
        const after = limit.retryAfterSeconds ?? 1;
        fail(429, 'Too many requests: slow down and retry after the Retry-After delay.', {
          'Retry-After': String(after),
        });
      }
    }
    if (faults.errorRate && (faults.random ?? Math.random)() < faults.errorRate)
      fail(503, 'The provider is temporarily unavailable (injected fault).');
    return next();
  };
}
