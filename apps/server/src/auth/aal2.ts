import type { Queryable } from '@engage/db';
import { AuthError } from './errors.js';
import type { SessionRow } from './sessions.js';
import type { Caller } from './types.js';

/**
 * Verifying a factor that is still unverified while the user already has a verified one needs an
 * aal2 session, whatever either factor's type. Otherwise a factor enrolled by someone who knew the
 * password before the owner turned on MFA (or one the owner left pending) would lift a
 * password-only session to aal2. Call within the verification's transaction.
 */
export async function assertMayVerify(
  tx: Queryable,
  caller: Caller,
  factor: { id: string; status: string },
): Promise<void> {
  if (factor.status !== 'unverified' || caller.session.aal === 'aal2') return;
  const { rows } = await tx.query(
    `select 1 from auth_factors where user_id = $1 and status = 'verified' and id <> $2 limit 1`,
    [caller.user.id, factor.id],
  );
  if (rows.length > 0) throw new AuthError(403, 'insufficient_aal', 'AAL2 required to verify a new factor');
}

/**
 * A second factor verified (TOTP or WebAuthn), within the verification's transaction: the user's other
 * unverified factors go, of every type (a pending factor of the other type could be someone
 * else's, planted with the password alone), the user's other aal1 sessions end, and this session is raised
 * to aal2 with the method first in its `amr` and a new refresh token (its old ones revoked).
 */
export async function raiseToAal2(
  tx: Queryable,
  caller: Caller,
  factor: { id: string; type: 'totp' | 'webauthn' },
  refreshToken: string,
  now: number,
): Promise<SessionRow> {
  const amr = [{ method: factor.type, timestamp: Math.floor(now / 1000) }, ...caller.session.amr];
  await tx.query(`delete from auth_factors where user_id = $1 and status = 'unverified' and id <> $2`, [
    caller.user.id,
    factor.id,
  ]);
  await tx.query(`delete from auth_sessions where user_id = $1 and id <> $2 and aal = 'aal1'`, [
    caller.user.id,
    caller.session.id,
  ]);
  const updated = await tx.query<SessionRow>(
    `update auth_sessions set aal = 'aal2', amr = $2::jsonb, factor_id = $3, updated_at = now() where id = $1
     returning id, user_id, aal, amr, created_at`,
    [caller.session.id, JSON.stringify(amr), factor.id],
  );
  await tx.query(
    'update auth_refresh_tokens set revoked = true, updated_at = $2 where session_id = $1 and revoked = false',
    [caller.session.id, new Date(now)],
  );
  await tx.query('insert into auth_refresh_tokens (token, user_id, session_id) values ($1, $2, $3)', [
    refreshToken,
    caller.user.id,
    caller.session.id,
  ]);
  return updated.rows[0] as SessionRow;
}
