/**
 * `@engage/rate-limit`: the one limiter of the server and the embedded provider. One algorithm
 * (gcra.ts), one address rule (address.ts), stores behind one interface (store.ts: memory here; the
 * server adds PostgreSQL). Imports nothing of ours; the emulator may import it (scripts/eslint-boundaries.js).
 * @module
 */
export { addressKey } from './address.js';
export { decide, intervalMs, refunded, toleranceMs, type Decision, type RateSpec } from './gcra.js';
export { createLimiter, retryAfterSeconds, storedKey, type Limiter, type LimiterOptions } from './limiter.js';
export { DEFAULT_MAX_KEYS, memoryLimitStore, type LimitStore } from './store.js';
