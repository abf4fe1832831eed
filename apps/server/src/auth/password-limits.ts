// Wrong passwords, limited per account AND per address so that guessing is slow while a stranger
// cannot lock the owner out. Every attempt is counted before the password is
// checked (so concurrent guesses cannot slip past a limit) and given back when it was right:
// - per account and address (/64): `passwordAccountAddress`, 5 at once then one a minute;
// - per account, from addresses the account has no session from: `passwordAccount` (10, then one
//   every 30 s) and `passwordAccountDaily` (100 a day, then one every ~15 minutes): a delay that
//   grows with the guessing, for everyone but the owner's own addresses, which these never count.
// Known addresses are those of the account's live sessions (auth_sessions.ip), compared by the
// address rule; after signing out everywhere the owner waits like anyone else, or resets by mail.
import { addressKey, type Limiter } from '@engage/rate-limit';
import type { AuthCore } from './core.js';
import { authErrors } from './errors.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Sessions looked at for the account's known addresses: the most recent ones. */
const KNOWN_SESSIONS = 50;

async function isKnownAddress(core: AuthCore, userId: string, address: string): Promise<boolean> {
  const { rows } = await core.db.query<{ ip: string }>(
    `select ip from auth_sessions where user_id = $1 and ip is not null order by created_at desc limit ${KNOWN_SESSIONS}`,
    [userId],
  );
  return rows.some((row) => addressKey(row.ip) === address);
}

export interface PasswordAttempt {
  /** The password was right: the attempt is given back to every limit it was counted on. */
  succeeded(): Promise<void>;
}

/**
 * Counts a password attempt for `email` (normalised) from `ip`; 429 `over_request_rate_limit` when
 * a limit is spent. `userId` is null for an unknown address, which is counted the same way (no
 * enumeration by the answers).
 */
export async function countPasswordAttempt(
  core: AuthCore,
  email: string,
  userId: string | null,
  ip: string,
): Promise<PasswordAttempt> {
  const address = addressKey(ip);
  const taken: [Limiter, string][] = [];
  const take = async (limiter: Limiter, key: string) => {
    const decision = await limiter.take(key);
    if (!decision.allowed) throw authErrors.requestRateLimit();
    taken.push([limiter, key]);
  };
  const { limiters } = core;
  await take(limiters.passwordAccountAddress, `${email} ${address}`);
  // Looked up for an unknown address too (the nil id matches nothing): the same work either way.
  if (!(await isKnownAddress(core, userId ?? NIL_UUID, address))) {
    await take(limiters.passwordAccount, email);
    await take(limiters.passwordAccountDaily, email);
  }
  return {
    async succeeded() {
      await Promise.all(taken.map(([limiter, key]) => limiter.refund(key)));
    },
  };
}
