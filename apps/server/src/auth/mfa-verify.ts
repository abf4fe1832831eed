// POST /factors/{id}/verify inside one transaction.
import type { Queryable } from '@engage/db';
import { assertMayVerify, raiseToAal2 } from './aal2.js';
import { AuthError } from './errors.js';
import { acceptedStep, backoffMs, isReusedCode, REUSED_CODE_MESSAGE } from './mfa-attempts.js';
import type { SessionRow } from './sessions.js';
import type { Caller } from './types.js';

export const CHALLENGE_LIFETIME_MS = 300_000;
/** Stands in for an id that is not a UUID, so the lookup finds nothing instead of failing. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export interface VerifyAttempt {
  caller: Caller;
  factorId: string;
  challengeId: string;
  code: string;
  ip: string;
  /** The refresh token the upgraded session gets. */
  refreshToken: string;
  now: number;
}

/** The upgraded session, or the error to throw once the transaction (and its counts) committed. */
export type VerifyOutcome = { session: SessionRow } | { error: AuthError };

interface LockedFactor {
  id: string;
  status: string;
  secret: string;
  last_totp_step: string | number | null;
  failed_verifications: number;
  verify_locked_until: Date | null;
}

const challengeExpired = (message = 'MFA challenge has expired or was not found') =>
  new AuthError(422, 'mfa_challenge_expired', message);

/**
 * Checks the code against the factor's row, locked (`for update`) for the whole transaction, so
 * two requests for one challenge or one factor run one after the other on every instance:
 * - a challenge is verified once (`verified_at` set here, under the lock);
 * - a code's time step must be newer than the factor's last accepted one (no replay);
 * - each wrong code counts on the row; from the fifth in a row the factor backs off
 *   (429 `over_request_rate_limit`, the right code included) until `verify_locked_until`.
 */
export async function verifyInTransaction(tx: Queryable, attempt: VerifyAttempt): Promise<VerifyOutcome> {
  const { caller, now } = attempt;
  const { rows } = await tx.query<LockedFactor>(
    `select id, status, secret, last_totp_step, failed_verifications, verify_locked_until
       from auth_factors where id = $1 and user_id = $2 for update`,
    [attempt.factorId, caller.user.id],
  );
  const factor = rows[0];
  if (!factor) return { error: new AuthError(404, 'mfa_factor_not_found', 'Factor not found') };
  await assertMayVerify(tx, caller, factor);
  const lockedMs = factor.verify_locked_until ? new Date(factor.verify_locked_until).getTime() - now : 0;
  if (lockedMs > 0)
    return {
      error: new AuthError(
        429,
        'over_request_rate_limit',
        `Too many wrong codes for this authenticator app: try again in ${Math.ceil(lockedMs / 1000)} seconds.`,
      ),
    };

  const challenges = await tx.query<{
    id: string;
    ip: string | null;
    created_at: Date;
    verified_at: Date | null;
  }>(
    'select id, ip, created_at, verified_at from auth_mfa_challenges where id = $1 and factor_id = $2 for update',
    [attempt.challengeId, factor.id],
  );
  const challenge = challenges.rows[0];
  if (!challenge || challenge.verified_at) return { error: challengeExpired() };
  if (now - new Date(challenge.created_at).getTime() > CHALLENGE_LIFETIME_MS) {
    await tx.query('delete from auth_mfa_challenges where id = $1', [challenge.id]);
    return {
      error: challengeExpired(
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      ),
    };
  }
  if (challenge.ip && challenge.ip !== attempt.ip)
    return {
      error: new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.'),
    };

  const lastStep = factor.last_totp_step === null ? null : Number(factor.last_totp_step);
  const step = acceptedStep(factor.secret, attempt.code, now, lastStep);
  if (step === null) {
    const failures = factor.failed_verifications + 1;
    const backoff = backoffMs(failures);
    await tx.query(
      'update auth_factors set failed_verifications = $2, verify_locked_until = $3 where id = $1',
      [factor.id, failures, backoff > 0 ? new Date(now + backoff) : null],
    );
    const message = isReusedCode(factor.secret, attempt.code, now, lastStep)
      ? REUSED_CODE_MESSAGE
      : 'Invalid TOTP code entered';
    return { error: new AuthError(422, 'mfa_verification_failed', message) };
  }
  return { session: await upgradeSession(tx, attempt, factor.id, challenge.id, step) };
}

/** The right code: the challenge is spent, the factor verified, the session raised to aal2. */
async function upgradeSession(
  tx: Queryable,
  { caller, now, refreshToken }: VerifyAttempt,
  factorId: string,
  challengeId: string,
  step: number,
): Promise<SessionRow> {
  await tx.query('update auth_mfa_challenges set verified_at = $2 where id = $1', [
    challengeId,
    new Date(now),
  ]);
  await tx.query(
    `update auth_factors set status = 'verified', last_totp_step = $2, failed_verifications = 0,
       verify_locked_until = null, updated_at = now() where id = $1`,
    [factorId, step],
  );
  return raiseToAal2(tx, caller, { id: factorId, type: 'totp' }, refreshToken, now);
}
