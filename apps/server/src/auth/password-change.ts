// PUT /user's password change: GoTrue's two optional proofs (the current password, a mailed nonce
// for an older session), then the new hash, other sessions and pending links ended in one
// transaction.
import type { AuthCore } from './core.js';
import { AuthError } from './errors.js';
import { codeTokenHash, takeToken } from './link-tokens.js';
import { countPasswordAttempt } from './password-limits.js';
import { verifyPassword, weakPassword } from './passwords.js';
import type { Caller, RequestContext } from './types.js';
import { USER_COLUMNS, type UserRow } from './users.js';

/** GoTrue: a session younger than this may change its password without a nonce. */
const RECENT_SESSION_MS = 24 * 3_600_000;

export interface PasswordChangeInput {
  password: string;
  nonce?: string | undefined;
  current_password?: string | undefined;
}

export function passwordChange(core: AuthCore) {
  const { db } = core;

  /** AUTH_SECURE_PASSWORD_CHANGE: an older session proves itself with the mailed nonce (single use). */
  async function checkReauthentication(caller: Caller, nonce: string | undefined) {
    if (!core.opts.securePasswordChange) return;
    if (core.now() - new Date(caller.session.created_at).getTime() < RECENT_SESSION_MS) return;
    if (!nonce)
      throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication');
    const taken = await takeToken(
      db,
      codeTokenHash(core.tokenSecret, caller.user.email, nonce),
      ['reauthentication'],
      core.linkLifetimeMs,
      core.now(),
    );
    if (!taken || taken.user_id !== caller.user.id)
      throw new AuthError(400, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
  }

  /**
   * AUTH_PASSWORD_CHANGE_NEEDS_CURRENT (GoTrue's UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD): a stolen
   * session cannot take the account over by setting a password. Not for a reset link's session (its
   * user forgot the password) nor an account that has none yet. A wrong one counts against the same
   * guess limits as a sign-in.
   */
  async function checkCurrentPassword(caller: Caller, current: string | undefined, ctx: RequestContext) {
    const { user, session } = caller;
    if (!core.opts.passwordChangeNeedsCurrent || !user.encrypted_password) return;
    if (session.amr.some((entry) => entry.method === 'recovery')) return;
    if (!current)
      throw new AuthError(
        400,
        'current_password_required',
        'Enter your current password to choose a new one.',
      );
    const attempt = await countPasswordAttempt(core, user.email, user.id, ctx.ip);
    if (!(await verifyPassword(user.encrypted_password, current)))
      throw new AuthError(400, 'current_password_mismatch', 'Your current password is not right.');
    await attempt.succeeded();
  }

  async function changePassword(caller: Caller, input: PasswordChangeInput, ctx: RequestContext) {
    const { password, nonce } = input;
    const weak = weakPassword(password);
    if (weak) throw weak;
    await checkCurrentPassword(caller, input.current_password, ctx);
    await checkReauthentication(caller, nonce);
    const { user } = caller;
    if (user.encrypted_password && (await verifyPassword(user.encrypted_password, password)))
      throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
    const newHash = await core.hash(password);
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<UserRow>(
        `update auth_users set encrypted_password = $2, updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
        [user.id, newHash],
      );
      // Other sessions end and pending email links die with the old password.
      await tx.query('delete from auth_sessions where user_id = $1 and id <> $2', [
        user.id,
        caller.session.id,
      ]);
      await tx.query('delete from auth_one_time_tokens where user_id = $1', [user.id]);
      return rows[0] as UserRow;
    });
  }

  return changePassword;
}
