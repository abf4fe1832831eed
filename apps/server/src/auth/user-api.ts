// GET /user, PUT /user (password, email change, metadata) and GET /reauthenticate.
import type { AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import type { LinkMail } from './link-mail.js';
import { codeTokenHash, takeToken } from './link-tokens.js';
import { MAX_METADATA_BYTES, assertMetadataFits, metadataTooLarge } from './metadata.js';
import { verifyPassword, weakPassword } from './passwords.js';
import { parsePkce } from './redirects.js';
import { parseBody, updateUserBody } from './schemas.js';
import { countPasswordAttempt } from './password-limits.js';
import type { Caller, RequestContext } from './types.js';
import { emailExists, normalizeEmail } from './user-store.js';
import { findUserByEmail, findUserById, listFactors, USER_COLUMNS, userJson, type UserRow } from './users.js';

/** GoTrue: a session younger than this may change its password without a nonce. */
const RECENT_SESSION_MS = 24 * 3_600_000;

export function createUserApi(core: AuthCore, mail: LinkMail) {
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
      throw new AuthError(400, 'current_password_required', 'Enter your current password to choose a new one.');
    const attempt = await countPasswordAttempt(core, user.email, user.id, ctx.ip);
    if (!(await verifyPassword(user.encrypted_password, current)))
      throw new AuthError(400, 'current_password_mismatch', 'Your current password is not right.');
    await attempt.succeeded();
  }

  async function changePassword(
    caller: Caller,
    input: { password: string; nonce?: string | undefined; current_password?: string | undefined },
    ctx: RequestContext,
  ) {
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

  /** An anonymous user takes an address, confirmed (autoconfirm only); 422 if it was taken meanwhile. */
  async function claimAddress(user: UserRow, email: string): Promise<UserRow> {
    try {
      const { rows } = await db.query<UserRow>(
        `update auth_users set email = $2, email_confirmed_at = now(), is_anonymous = false,
           email_change = null, email_change_confirm_status = 0, updated_at = now()
         where id = $1 returning ${USER_COLUMNS}`,
        [user.id, email],
      );
      return rows[0] ?? user;
    } catch (error) {
      // Someone took the address between the check and here (the unique index).
      if ((error as { code?: string }).code === '23505') throw emailExists();
      throw error;
    }
  }

  return {
    /** GET /user */
    async getUser(token: string | null) {
      const { user } = await core.authenticate(token);
      return userJson(user, await listFactors(db, user.id));
    },

    /** PUT /user[?redirect_to=]: password, email (GoTrue's secure change), user_metadata. */
    async updateUser(token: string | null, body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const caller = await core.authenticate(token);
      const input = parseBody(updateUserBody, body);
      if (input.app_metadata !== undefined) throw authErrors.notAdmin();
      if (input.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      const newEmail =
        input.email !== undefined && input.email !== '' ? normalizeEmail(input.email) : caller.user.email;
      const emailChange = newEmail !== caller.user.email;
      // GoTrue ignores the current address; asked for nothing else, that answer would read as "sent"
      // while nothing is mailed, so it is refused as a taken address, with words that say why.
      if (input.email && !emailChange && input.password === undefined && !input.data)
        throw new AuthError(422, 'email_exists', 'This is already your email address.');
      // GoTrue: an anonymous user's password comes with the address it will sign in with.
      if (caller.user.is_anonymous && input.password && !input.email)
        throw new AuthError(
          422,
          'validation_failed',
          'Updating password of an anonymous user without an email or phone is not allowed',
        );
      const pkce = parsePkce(input.code_challenge, input.code_challenge_method);
      if (input.password !== undefined || emailChange) {
        const factors = await listFactors(db, caller.user.id);
        if (factors.some((f) => f.status === 'verified') && caller.session.aal !== 'aal2')
          throw new AuthError(
            401,
            'insufficient_aal',
            'AAL2 session is required to update email or password when MFA is enabled.',
          );
      }
      if (emailChange && (await findUserByEmail(db, newEmail))) throw emailExists();
      // Measured as merged (jsonb `||`: top-level keys replaced), before anything is written.
      if (input.data) assertMetadataFits({ ...caller.user.raw_user_meta_data, ...input.data });
      let user = caller.user;
      if (input.password !== undefined)
        user = await changePassword(
          caller,
          { password: input.password, nonce: input.nonce, current_password: input.current_password },
          ctx,
        );
      if (input.data) {
        // The cap again in the statement, so concurrent updates cannot add up past it.
        const { rows } = await db.query<UserRow>(
          `update auth_users set raw_user_meta_data = raw_user_meta_data || $2::jsonb, updated_at = now()
           where id = $1 and octet_length((raw_user_meta_data || $2::jsonb)::text) <= $3
           returning ${USER_COLUMNS}`,
          [user.id, JSON.stringify(input.data), 2 * MAX_METADATA_BYTES],
        );
        if (!rows[0]) throw metadataTooLarge();
        user = rows[0];
      }
      if (emailChange && user.is_anonymous && core.autoconfirm) {
        // GoTrue: with autoconfirm an anonymous user's address applies at once, like a sign-up,
        // and the user is anonymous no more.
        user = await claimAddress(user, newEmail);
      } else if (emailChange) {
        await mail.sendEmailChange(user, newEmail, core.redirect(redirectTo), pkce);
        user = (await findUserById(db, user.id)) ?? user;
      }
      return userJson(user, await listFactors(db, user.id));
    },

    /** GET /reauthenticate: mails a nonce for PUT /user's password change (GoTrue's checks and words). */
    async reauthenticate(token: string | null) {
      const { user } = await core.authenticate(token);
      if (!user.email)
        throw authErrors.validation('Reauthentication requires the user to have an email or a phone number');
      if (!user.email_confirmed_at)
        throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
      await mail.sendReauthentication(user);
      return {};
    },
  };
}
