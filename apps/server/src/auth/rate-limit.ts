// The embedded auth's limits: which ones exist and their defaults. The limiter itself (algorithm,
// address rule, stores) is `@engage/rate-limit`, shared with every other limit of the server and the
// emulator; with DATABASE_URL its counts live in PostgreSQL (db/limit-store.ts).
import {
  addressKey,
  createLimiter,
  memoryLimitStore,
  type Limiter,
  type LimitStore,
  type RateSpec,
} from '@engage/rate-limit';

/** A limit's spec: `burst` at once, refilled at `perWindow` per `windowMs`. */
export type BucketSpec = RateSpec;

const FIVE_MINUTES = 5 * 60_000;
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/**
 * GoTrue's per-address defaults, and the per-account limits on guesses:
 * - `passwordAccountAddress`: wrong passwords for one account from one address (/64);
 * - `passwordAccount`, `passwordAccountDaily`: wrong passwords for one account from addresses it has
 *   no session from: 10 at once, then one every 30 s, and past 100 a day one every ~15 minutes (a
 *   delay that grows, never a lock: the owner's own addresses are not counted here);
 * - `anonymous`: anonymous sign-ins per address (/64), GoTrue's 30 an hour;
 * - `passkey`: passkey verifications (registration and sign-in) per address, like /verify;
 * - `passkeyOptions`: passkey challenges issued (the options of both ceremonies) per address, a
 *   bucket of their own: the sign-in form's passkey autofill asks for one whenever it opens, and
 *   visitors behind one NAT or /64 share an address, so those requests must not spend the budget
 *   of the verifications that actually sign someone in. Five times as large; every challenge is a
 *   stored row, so it stays bounded (expiring after 5 minutes, and capped overall: webauthn.ts);
 * - `emailCodeGuesses`: wrong six-digit codes per pending email token; at 5 the token is burnt. It
 *   does not refill within a token's life (at most 5 guesses per mail).
 */
export const DEFAULT_LIMITS = {
  token: { burst: 30, perWindow: 150, windowMs: FIVE_MINUTES },
  signup: { burst: 30, perWindow: 30, windowMs: FIVE_MINUTES },
  recover: { burst: 30, perWindow: 30, windowMs: FIVE_MINUTES },
  verify: { burst: 30, perWindow: 30, windowMs: FIVE_MINUTES },
  mfa: { burst: 15, perWindow: 15, windowMs: 60_000 },
  anonymous: { burst: 30, perWindow: 30, windowMs: HOUR },
  passkey: { burst: 30, perWindow: 30, windowMs: FIVE_MINUTES },
  passkeyOptions: { burst: 150, perWindow: 150, windowMs: FIVE_MINUTES },
  passwordAccountAddress: { burst: 5, perWindow: 5, windowMs: FIVE_MINUTES },
  passwordAccount: { burst: 10, perWindow: 10, windowMs: FIVE_MINUTES },
  passwordAccountDaily: { burst: 100, perWindow: 100, windowMs: DAY },
  emailCodeGuesses: { burst: 5, perWindow: 1, windowMs: 2 * DAY },
} satisfies Record<string, BucketSpec>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
/** Per limit: a spec, or null to turn that limit off. */
export type RateLimitOptions = Partial<Record<LimitName, BucketSpec | null>>;

/** Every limit off (tests that are not about limits). */
export const NO_LIMITS: RateLimitOptions = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS).map((name) => [name, null]),
);

/** A per-address limit as the MFA endpoints use it: true when the request may go ahead. */
export interface RateLimiter {
  take(ip: string): Promise<boolean>;
}

export type RateLimiters = Record<LimitName, Limiter>;

/** Every auth limit over one store (memory unless the server passes the database's). */
export function createRateLimiters(
  options: RateLimitOptions = {},
  now?: () => number,
  store: LimitStore = memoryLimitStore(),
): RateLimiters {
  const names = Object.keys(DEFAULT_LIMITS) as LimitName[];
  return Object.fromEntries(
    names.map((name) => [
      name,
      createLimiter(`auth.${name}`, name in options ? (options[name] ?? null) : DEFAULT_LIMITS[name], {
        store,
        now,
      }),
    ]),
  ) as RateLimiters;
}

/** `limiter` keyed by the caller's address under the one address rule (IPv6 by /64). */
export const perAddress = (limiter: Limiter): RateLimiter => ({
  take: async (ip) => (await limiter.take(addressKey(ip))).allowed,
});
