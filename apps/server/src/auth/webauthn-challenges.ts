// The WebAuthn challenge store, shared by passkeys and WebAuthn factors: single-use, expiring,
// bound to who asked, and capped in number (one count-and-insert under an advisory lock).
import {
  advisoryXactLock,
  isLockTimeout,
  keyedQueue,
  type Db,
  type KeyedQueue,
  type Queryable,
} from '@engage/db';
import { AuthError, authErrors } from './errors.js';
import { isUuid } from './tokens.js';
import {
  challengeExpired,
  passkeyChallengeExpired,
  passkeyChallengeNotFound,
  WEBAUTHN_CHALLENGE_MS,
} from './webauthn.js';

/**
 * Challenges pending at once, all kinds and callers together: a backstop on the table's size when a
 * flood comes from more addresses than the per-address limits can hold (about 200 bytes a row, so
 * some 20 MB). Past it new ceremonies get 429 until the oldest expire (5 minutes at most); ceremonies
 * already under way finish, and password sign-in is not affected.
 */
export const MAX_PENDING_CHALLENGES = 100_000;

export type ChallengeKind = 'registration' | 'authentication' | 'mfa_create' | 'mfa_request';

/** The advisory lock that makes the cap's count-and-insert one step on PostgreSQL (hashtext key). */
const CHALLENGE_CAP_LOCK = 'engage:webauthn-challenges';
/** Longest a save waits for its turn (in this process, then for the lock) before a 429. */
export const CHALLENGE_LOCK_TIMEOUT_MS = 2_000;

/** The in-process turns of each database (one per instance): at most one connection waits on the lock. */
const queues = new WeakMap<Db, KeyedQueue>();
const queueOf = (db: Db) => {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = keyedQueue()));
  return queue;
};

const tooManyCeremonies = () =>
  new AuthError(
    429,
    'over_request_rate_limit',
    'Too many passkey ceremonies are under way: try again in a few minutes, or use your password.',
  );
const busy = () =>
  new AuthError(429, 'over_request_rate_limit', 'Too many passkey requests at once: try again in a moment.');

export interface ChallengeLimits {
  /** Challenges pending at once (default MAX_PENDING_CHALLENGES). */
  maxPending?: number;
  /** Longest wait for the cap's lock, ms (default CHALLENGE_LOCK_TIMEOUT_MS); tests set a short one. */
  lockTimeoutMs?: number;
}

export async function saveChallenge(
  db: Db,
  kind: ChallengeKind,
  challenge: string,
  bound: { userId?: string; sessionId?: string; factorId?: string },
  now: number,
  limits: ChallengeLimits = {},
): Promise<{ id: string; expires_at: number }> {
  const maxPending = limits.maxPending ?? MAX_PENDING_CHALLENGES;
  const lockTimeoutMs = limits.lockTimeoutMs ?? CHALLENGE_LOCK_TIMEOUT_MS;
  const queuedAt = Date.now();
  // One save at a time in this process first: a flood queues here, holding no pool connection, so
  // sign-in and everything else keep theirs. The whole wait (queue, then lock) is bounded: a save
  // that waited too long is refused with 429 instead of holding its caller or a connection.
  const rows = await queueOf(db)(CHALLENGE_CAP_LOCK, async () => {
    const left = lockTimeoutMs - (Date.now() - queuedAt);
    if (left <= 0) throw busy();
    try {
      return await db.transaction(async (tx) => {
        // The count and the insert as one step: under PostgreSQL's READ COMMITTED, concurrent
        // inserts each counted the rows committed before them and went past the cap together. One
        // saver at a time across instances (the lock goes with the transaction). PGlite is one
        // session that runs a transaction alone, so there the transaction is the whole lock.
        if (db.kind === 'postgres') await advisoryXactLock(tx, CHALLENGE_CAP_LOCK, left);
        // Abandoned challenges go with each new one once twice their life has passed: until then
        // a late verification is told its challenge expired, not that it never existed.
        await tx.query('delete from auth_webauthn_challenges where created_at < $1', [
          new Date(now - 2 * WEBAUTHN_CHALLENGE_MS),
        ]);
        // Counts the live ones, at most the cap's worth of rows: enough to know whether it is reached.
        const inserted = await tx.query<{ id: string }>(
          `insert into auth_webauthn_challenges (kind, challenge, user_id, session_id, factor_id, created_at)
           select $1, $2, $3, $4, $5, $6
           where (select count(*) from (
             select 1 from auth_webauthn_challenges where created_at >= $8 limit $7
           ) capped) < $7
           returning id`,
          [
            kind,
            challenge,
            bound.userId ?? null,
            bound.sessionId ?? null,
            bound.factorId ?? null,
            new Date(now),
            maxPending,
            new Date(now - WEBAUTHN_CHALLENGE_MS),
          ],
        );
        return inserted.rows;
      });
    } catch (error) {
      if (isLockTimeout(error)) throw busy();
      throw error;
    }
  });
  if (!rows[0]) throw tooManyCeremonies();
  return {
    id: rows[0].id,
    expires_at: Math.floor((now + WEBAUTHN_CHALLENGE_MS) / 1000),
  };
}

/**
 * Takes a challenge: deleted in the same statement that reads it, so it is used once even by two
 * concurrent verifications. It must be of `kind`, bound to the same user/session/factor, and young.
 * A passkey ceremony answers as GoTrue does (400: a malformed id, not found or spent, expired); an
 * MFA factor's keeps the one 422 of the MFA API.
 */
export async function takeChallenge(
  db: Queryable,
  id: unknown,
  kind: ChallengeKind,
  bound: { userId?: string; sessionId?: string; factorId?: string },
  now: number,
): Promise<string> {
  const mfa = kind === 'mfa_create' || kind === 'mfa_request';
  if (typeof id !== 'string' || !isUuid(id))
    throw mfa ? challengeExpired() : authErrors.validation('challenge_id must be a valid UUID');
  const { rows } = await db.query<{ challenge: string; created_at: Date }>(
    `delete from auth_webauthn_challenges
      where id = $1 and kind = $2 and user_id is not distinct from $3
        and session_id is not distinct from $4 and factor_id is not distinct from $5
      returning challenge, created_at`,
    [id, kind, bound.userId ?? null, bound.sessionId ?? null, bound.factorId ?? null],
  );
  const row = rows[0];
  if (!row) throw mfa ? challengeExpired() : passkeyChallengeNotFound();
  if (now - new Date(row.created_at).getTime() > WEBAUTHN_CHALLENGE_MS)
    throw mfa ? challengeExpired() : passkeyChallengeExpired();
  return row.challenge;
}
