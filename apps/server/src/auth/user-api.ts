// GET /user, PUT /user (password, email change, metadata) and GET /reauthenticate.
import type { AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import type { LinkMail } from './link-mail.js';
import { MAX_METADATA_BYTES, assertMetadataFits, metadataTooLarge } from './metadata.js';
import { passwordChange } from './password-change.js';
import { parsePkce } from './redirects.js';
import { parseBody, updateUserBody } from './schemas.js';
import type { RequestContext } from './types.js';
import { emailExists, normalizeEmail } from './user-store.js';
import { findUserByEmail, findUserById, listFactors, USER_COLUMNS, userJson, type UserRow } from './users.js';

export function createUserApi(core: AuthCore, mail: LinkMail) {
  const { db } = core;
  const changePassword = passwordChange(core);

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
    async updateUser(
      token: string | null,
      body: unknown,
      redirectTo: string | undefined,
      ctx: RequestContext,
    ) {
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
