// Recovery codes for an account with a second factor (an Engage addition to the auth API: GoTrue has
// none). Ten single-use codes, made by the account holder in a session that used its factor, shown
// once; any one of them stands in for the authenticator at the second step. A wrong one counts
// against the same guesses as a wrong authenticator code (the factor's row: five free, then a
// growing back-off), and per address like every MFA request.
import { createHmac, randomInt } from 'node:crypto';
import type { Db, Queryable } from '@engage/db';
import { z } from 'zod';
import { raiseToAal2 } from './aal2.js';
import { AuthError } from './errors.js';
import type { TokenSecret } from './link-tokens.js';
import { backoffMs } from './mfa-attempts.js';
import type { RateLimiter } from './rate-limit.js';
import { parseBody } from './schemas.js';
import type { SessionRow } from './sessions.js';
import { newRefreshToken } from './tokens.js';
import type { Caller, TokenResponse } from './types.js';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/O, 1/I/L: a code read off paper is typed right. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const verifyBody = z.object({ code: z.string().max(64) });

/** A code as typed: case, spaces and dashes do not matter. */
const normalise = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

function newCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export interface RecoveryCodeDeps {
  db: Db;
  now: () => number;
  tokenSecret: TokenSecret;
  limiter: RateLimiter;
  tokenResponse(user: Caller['user'], session: SessionRow, refreshToken: string): Promise<TokenResponse>;
}

interface VerifiedFactor {
  id: string;
  factor_type: 'totp' | 'webauthn';
  failed_verifications: number;
  verify_locked_until: Date | null;
}

/** Drops an account's recovery codes once it has no verified factor left (they guard nothing then). */
export async function dropRecoveryCodesWithoutFactor(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `delete from auth_mfa_recovery_codes where user_id = $1
       and not exists (select 1 from auth_factors where user_id = $1 and status = 'verified')`,
    [userId],
  );
}

export function createRecoveryCodeApi(deps: RecoveryCodeDeps) {
  const { db } = deps;
  const hashOf = (code: string) =>
    createHmac('sha256', deps.tokenSecret)
      .update(`recovery ${normalise(code)}`)
      .digest('hex');

  async function verifiedFactors(q: Queryable, userId: string, lock = false): Promise<VerifiedFactor[]> {
    const { rows } = await q.query<VerifiedFactor>(
      `select id, factor_type, failed_verifications, verify_locked_until from auth_factors
        where user_id = $1 and status = 'verified' order by created_at, id ${lock ? 'for update' : ''}`,
      [userId],
    );
    return rows;
  }

  return {
    /** GET /recovery-codes: how many are left, and when they were made (never the codes). */
    async status(caller: Caller) {
      const { rows } = await db.query<{ remaining: string; created_at: Date | null }>(
        `select count(*) filter (where used_at is null) as remaining, max(created_at) as created_at
           from auth_mfa_recovery_codes where user_id = $1`,
        [caller.user.id],
      );
      const row = rows[0];
      return {
        remaining: Number(row?.remaining ?? 0),
        created_at: row?.created_at ? new Date(row.created_at).toISOString() : null,
      };
    },

    /** POST /recovery-codes: a new set (the old one stops working), shown in this answer only. */
    async generate(caller: Caller) {
      if ((await verifiedFactors(db, caller.user.id)).length === 0)
        throw new AuthError(422, 'mfa_factor_not_found', 'Set up two-factor authentication first.');
      if (caller.session.aal !== 'aal2')
        throw new AuthError(403, 'insufficient_aal', 'AAL2 required to make recovery codes');
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
      await db.transaction(async (tx) => {
        await tx.query('delete from auth_mfa_recovery_codes where user_id = $1', [caller.user.id]);
        for (const code of codes)
          await tx.query('insert into auth_mfa_recovery_codes (user_id, code_hash) values ($1, $2)', [
            caller.user.id,
            hashOf(code),
          ]);
      });
      return { codes };
    },

    /**
     * POST /recovery-codes/verify: a password-only (aal1) session gives one unused code and is raised
     * to aal2, as by its authenticator. One transaction holds the first factor's row, whose count of
     * wrong codes (and back-off) this shares with the authenticator's.
     */
    async verify(caller: Caller, body: unknown, ip: string): Promise<TokenResponse> {
      if (!(await deps.limiter.take(ip)))
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
      const { code } = parseBody(verifyBody, body);
      const refreshToken = newRefreshToken();
      const now = deps.now();
      const outcome = await db.transaction(
        async (tx): Promise<{ session: SessionRow } | { error: AuthError }> => {
          const factor = (await verifiedFactors(tx, caller.user.id, true))[0];
          if (!factor)
            return {
              error: new AuthError(422, 'mfa_factor_not_found', 'This account has no second factor.'),
            };
          const lockedMs = factor.verify_locked_until
            ? new Date(factor.verify_locked_until).getTime() - now
            : 0;
          if (lockedMs > 0)
            return {
              error: new AuthError(
                429,
                'over_request_rate_limit',
                `Too many wrong codes: try again in ${Math.ceil(lockedMs / 1000)} seconds.`,
              ),
            };
          const used = await tx.query(
            `update auth_mfa_recovery_codes set used_at = $3
            where id = (select id from auth_mfa_recovery_codes
                         where user_id = $1 and code_hash = $2 and used_at is null limit 1)
            returning id`,
            [caller.user.id, hashOf(code), new Date(now)],
          );
          if (used.rows.length === 0) {
            const failures = factor.failed_verifications + 1;
            const backoff = backoffMs(failures);
            await tx.query(
              'update auth_factors set failed_verifications = $2, verify_locked_until = $3 where id = $1',
              [factor.id, failures, backoff > 0 ? new Date(now + backoff) : null],
            );
            return {
              error: new AuthError(
                422,
                'mfa_verification_failed',
                'This recovery code is wrong or was used already.',
              ),
            };
          }
          await tx.query(
            'update auth_factors set failed_verifications = 0, verify_locked_until = null where id = $1',
            [factor.id],
          );
          return {
            session: await raiseToAal2(
              tx,
              caller,
              { id: factor.id, type: factor.factor_type },
              refreshToken,
              now,
            ),
          };
        },
      );
      if ('error' in outcome) throw outcome.error;
      return deps.tokenResponse(caller.user, outcome.session, refreshToken);
    },
  };
}
