// TOTP and WebAuthn factors (WebAuthn in mfa-webauthn.ts). Phone factors
// answer a clear "not enabled" error.
import type { Db } from '@engage/db';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { AuthError } from './errors.js';
import { totpFor } from './mfa-attempts.js';
import { CHALLENGE_LIFETIME_MS, NIL_UUID, verifyInTransaction } from './mfa-verify.js';
import { createWebauthnFactorApi } from './mfa-webauthn.js';
import type { RateLimiter } from './rate-limit.js';
import { dropRecoveryCodesWithoutFactor } from './recovery-codes.js';
import { challengeBody, enrollBody, mfaVerifyBody, parseBody } from './schemas.js';
import type { SessionRow } from './sessions.js';
import { newRefreshToken, isUuid } from './tokens.js';
import type { Caller, TokenResponse } from './types.js';
import { listFactors, type FactorRow } from './users.js';
import type { RelyingParty } from './webauthn.js';

const MAX_FACTORS = 10;

export interface MfaDeps {
  db: Db;
  limiter: RateLimiter;
  now: () => number;
  /** The WebAuthn relying party (PUBLIC_URL's host and origin). */
  rp: () => RelyingParty;
  /** WebAuthn challenges pending at once (default MAX_PENDING_CHALLENGES). */
  maxPendingChallenges?: number;
  tokenResponse(user: Caller['user'], session: SessionRow, refreshToken: string): Promise<TokenResponse>;
}

const factorNotFound = () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found');

export function createMfaApi(deps: MfaDeps) {
  const { db, now } = deps;
  const webauthn = createWebauthnFactorApi(deps);

  async function ownFactor(caller: Caller, factorId: string): Promise<FactorRow> {
    if (!isUuid(factorId)) throw factorNotFound();
    const { rows } = await db.query<FactorRow>('select * from auth_factors where id = $1 and user_id = $2', [
      factorId,
      caller.user.id,
    ]);
    if (!rows[0]) throw factorNotFound();
    return rows[0];
  }

  return {
    async enroll(caller: Caller, body: unknown, defaultIssuer: string) {
      const input = parseBody(enrollBody, body);
      if (input.factor_type === 'phone')
        throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
      if (input.factor_type !== 'totp' && input.factor_type !== 'webauthn')
        throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone or webauthn');
      const factors = await listFactors(db, caller.user.id);
      if (factors.length >= MAX_FACTORS)
        throw new AuthError(
          422,
          'too_many_enrolled_mfa_factors',
          'Maximum number of verified factors reached, unenroll to continue',
        );
      if (factors.some((f) => f.status === 'verified') && caller.session.aal !== 'aal2')
        throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
      const name = input.friendly_name?.trim() || undefined;
      if (name && factors.some((f) => f.friendly_name === name))
        throw new AuthError(
          422,
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${name}" for this user already exists`,
        );
      if (input.factor_type === 'webauthn') {
        // The credential arrives with the first challenge's verification (mfa-webauthn.ts).
        const { rows } = await db.query<{ id: string }>(
          `insert into auth_factors (user_id, friendly_name, factor_type, secret) values ($1, $2, 'webauthn', '') returning id`,
          [caller.user.id, name ?? null],
        );
        return { id: rows[0]?.id, type: 'webauthn', friendly_name: name ?? '' };
      }
      const issuer = input.issuer?.trim() || defaultIssuer;
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      const uri = totpFor(secret, caller.user.email, issuer).toString();
      const { rows } = await db.query<{ id: string }>(
        `insert into auth_factors (user_id, friendly_name, factor_type, secret) values ($1, $2, 'totp', $3) returning id`,
        [caller.user.id, name ?? null, secret],
      );
      const qr = await QRCode.toString(uri, { type: 'svg', margin: 1 });
      return { id: rows[0]?.id, type: 'totp', friendly_name: name ?? '', totp: { qr_code: qr, secret, uri } };
    },

    async challenge(caller: Caller, factorId: string, body: unknown, ip: string) {
      if (!(await deps.limiter.take(ip)))
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
      const factor = await ownFactor(caller, factorId);
      if (factor.factor_type === 'webauthn') return webauthn.challenge(caller, factor, body);
      parseBody(challengeBody, body);
      const { rows } = await db.query<{ id: string; created_at: Date }>(
        'insert into auth_mfa_challenges (factor_id, ip, created_at) values ($1, $2, $3) returning id, created_at',
        [factor.id, ip, new Date(now())],
      );
      await db.query('update auth_factors set last_challenged_at = $2 where id = $1', [
        factor.id,
        new Date(now()),
      ]);
      const row = rows[0] as { id: string; created_at: Date };
      return {
        id: row.id,
        type: 'totp',
        expires_at: Math.floor((new Date(row.created_at).getTime() + CHALLENGE_LIFETIME_MS) / 1000),
      };
    },

    async verify(caller: Caller, factorId: string, body: unknown, ip: string): Promise<TokenResponse> {
      if (!(await deps.limiter.take(ip)))
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
      const factor = await ownFactor(caller, factorId);
      if (factor.factor_type === 'webauthn') {
        const upgraded = await webauthn.verify(caller, factor, body);
        return deps.tokenResponse(caller.user, upgraded.session, upgraded.refreshToken);
      }
      const input = parseBody(mfaVerifyBody, body);
      const challengeId = isUuid(input.challenge_id) ? input.challenge_id : NIL_UUID;
      const refreshToken = newRefreshToken();
      // One transaction holding the factor's row: the challenge, the code's time step and the
      // count of wrong codes are read and written by one request at a time, on every instance.
      // A wrong code's count is committed, then its error thrown.
      const outcome = await db.transaction((tx) =>
        verifyInTransaction(tx, {
          caller,
          factorId,
          challengeId,
          code: input.code,
          ip,
          refreshToken,
          now: now(),
        }),
      );
      if ('error' in outcome) throw outcome.error;
      return deps.tokenResponse(caller.user, outcome.session, refreshToken);
    },

    async unenroll(caller: Caller, factorId: string) {
      const factor = await ownFactor(caller, factorId);
      if (factor.status === 'verified' && caller.session.aal !== 'aal2')
        throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
      await db.query('delete from auth_factors where id = $1', [factor.id]);
      await db.query(`update auth_sessions set aal = 'aal1', factor_id = null where factor_id = $1`, [
        factor.id,
      ]);
      await dropRecoveryCodesWithoutFactor(db, caller.user.id);
      return { id: factor.id };
    },
  };
}
