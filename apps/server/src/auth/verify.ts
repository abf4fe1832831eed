// POST /verify and GET /verify: every link and code of link-mail.ts ends here.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '@engage/db';
import { countCodeGuess } from './code-guesses.js';
import { userBanned, type AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import { codeTokenHash, takeToken, type TakenToken, type TokenSlot } from './link-tokens.js';
import { PKCE_PREFIX, type Pkce } from './redirects.js';
import { parseBody, verifyBody, verifyTypes, type VerifyType } from './schemas.js';
import type { RequestContext, TokenResponse } from './types.js';
import { emailExists, normalizeEmail } from './user-store.js';
import { USER_COLUMNS, type UserRow } from './users.js';

const SLOTS: Record<VerifyType, readonly TokenSlot[]> = {
  signup: ['confirmation'],
  invite: ['confirmation'],
  recovery: ['recovery'],
  magiclink: ['recovery'],
  // An emailed code is the sign-up confirmation's or the magic link's.
  email: ['confirmation', 'recovery'],
  email_change: ['email_change_current', 'email_change_new'],
  email_change_current: ['email_change_current'],
  email_change_new: ['email_change_new'],
};

/** GoTrue's answer to the first half of a secure email change. */
export const EMAIL_CHANGE_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** A verified token: a user to sign in, or the first half of an email change. */
export type Verified = { user: UserRow; pkce: Pkce | null } | { accepted: true };

/** A consumed token of an email change: one half recorded, or both and the address moved. */
async function applyEmailChange(
  tx: Queryable,
  token: TakenToken,
  autoconfirm: boolean,
): Promise<Verified | null> {
  const { rows } = await tx.query<{ email_change: string | null; email_change_confirm_status: number }>(
    'select email_change, email_change_confirm_status from auth_users where id = $1 for update',
    [token.user_id],
  );
  const pending = rows[0];
  if (!pending?.email_change) return null;
  if (!autoconfirm && pending.email_change_confirm_status === 0) {
    await tx.query('update auth_users set email_change_confirm_status = 1 where id = $1', [token.user_id]);
    return { accepted: true };
  }
  try {
    const changed = await tx.query<UserRow>(
      `update auth_users set email = email_change, email_change = null, email_change_confirm_status = 0,
         email_confirmed_at = coalesce(email_confirmed_at, now()), is_anonymous = false, updated_at = now()
       where id = $1 returning ${USER_COLUMNS}`,
      [token.user_id],
    );
    await tx.query(
      `delete from auth_one_time_tokens where user_id = $1 and token_type like 'email_change_%'`,
      [token.user_id],
    );
    return changed.rows[0] ? { user: changed.rows[0], pkce: token.pkce } : null;
  } catch (error) {
    // Someone took the new address meanwhile (the unique index).
    if ((error as { code?: string }).code === '23505') throw emailExists();
    throw error;
  }
}

/** A consumed confirmation, recovery or magic-link token: the address is confirmed. */
async function applyConfirmation(tx: Queryable, token: TakenToken): Promise<Verified | null> {
  // A recovery or magic link that confirms an address drops the password a sign-up left
  // pending: the mailbox owner did not necessarily set it (docs/security.md).
  const updated = await tx.query<UserRow>(
    `update auth_users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now(),
       encrypted_password = case when email_confirmed_at is null and $2::boolean then null else encrypted_password end
     where id = $1 returning ${USER_COLUMNS}`,
    [token.user_id, token.token_type === 'recovery'],
  );
  return updated.rows[0] ? { user: updated.rows[0], pkce: token.pkce } : null;
}

/** The fragment of GET /verify's redirect: form-encoded, keys sorted, `sb` an empty marker (GoTrue's exact layout). */
function redirectFragment(target: string, params: Record<string, string>, tokenIsPkce: boolean): string {
  const all: Record<string, string> = { ...params, sb: '' };
  const sorted = Object.keys(all)
    .sort()
    .map((k) => [k, all[k] as string]);
  const encoded = new URLSearchParams(sorted).toString();
  // PKCE clients read errors from the query string: GoTrue copies them there too.
  if ('error' in params && tokenIsPkce) {
    const url = new URL(target);
    for (const [k, v] of sorted) if (k !== 'sb') url.searchParams.set(k as string, v as string);
    return `${url.toString()}#${encoded}`;
  }
  return `${target}#${encoded}`;
}

const amrMethod = (type: string) => (type === 'recovery' ? 'recovery' : 'otp');

export function createVerifyApi(core: AuthCore) {
  const { db } = core;

  /**
   * Consumes a link's token (single use) and applies it: a confirmation, recovery or magic link
   * confirms the address (the mail reached its owner); an email change records one half, or with
   * both halves (or AUTH_AUTOCONFIRM) moves the account to the new address. 403 `otp_expired`
   * for a bad, used or expired token. `codeFor`: the address a six-digit code was typed for, whose
   * pending tokens count the guess (code-guesses.ts).
   */
  async function consume(
    presented: string,
    type: string,
    ctx: RequestContext,
    codeFor?: string,
  ): Promise<Verified> {
    await core.limit('verify', ctx.ip);
    if (!(verifyTypes as readonly string[]).includes(type))
      throw authErrors.validation(`Verify type "${type}" is not supported by this server`);
    const byCode = codeFor !== undefined;
    if (byCode) await countCodeGuess(core, codeFor, SLOTS[type as VerifyType]);
    const invalid = () => authErrors.otpExpired(byCode ? 'Token has expired or is invalid' : undefined);
    const result = await db.transaction(async (tx): Promise<Verified | null> => {
      const token = await takeToken(
        tx,
        presented,
        SLOTS[type as VerifyType],
        core.linkLifetimeMs,
        core.now(),
      );
      if (!token) return null;
      if (token.token_type === 'email_change_current' || token.token_type === 'email_change_new')
        return applyEmailChange(tx, token, core.autoconfirm);
      return applyConfirmation(tx, token);
    });
    if (!result) throw invalid();
    if ('user' in result && core.isBanned(result.user)) throw userBanned(403);
    return result;
  }

  return {
    consume,

    /** POST /verify: {token_hash, type} or {email, token, type}. */
    async verifyOtp(
      body: unknown,
      ctx: RequestContext,
    ): Promise<TokenResponse | { msg: string; code: string }> {
      const input = parseBody(verifyBody, body);
      let verified: Verified;
      if (input.token_hash) {
        if (input.email || input.phone)
          throw authErrors.validation('Only the token_hash and type should be provided');
        verified = await consume(input.token_hash, input.type, ctx);
      } else {
        if (input.phone) {
          // GoTrue's E.164 rule ("+" and spaces aside: 2 to 15 digits, no leading 0) comes first.
          if (!/^[1-9]\d{1,14}$/.test(input.phone.replace(/^\+/, '').replaceAll(' ', '')))
            throw authErrors.validation('Invalid phone number format (E.164 required)');
          // No account has a phone here, so no phone code can be right: GoTrue's answer for a
          // phone it does not know (counted against the verify limit like any guess).
          await core.limit('verify', ctx.ip);
          throw authErrors.otpExpired('Token has expired or is invalid');
        }
        if (!input.email || !input.token)
          throw authErrors.validation('Verify requires either a token_hash or an email and a token');
        // The token hash binds the code to the address it was mailed to.
        const email = normalizeEmail(input.email);
        verified = await consume(codeTokenHash(core.tokenSecret, email, input.token), input.type, ctx, email);
      }
      if ('accepted' in verified) return { msg: EMAIL_CHANGE_ACCEPTED, code: '200' };
      return core.signIn(verified.user, amrMethod(input.type), ctx);
    },

    /** GET /verify: a redirect URL carrying the session (or the error) in its fragment. */
    async verifyRedirect(
      query: { token?: string; type?: string; redirect_to?: string },
      ctx: RequestContext,
    ): Promise<string> {
      const target = core.redirect(query.redirect_to).split('#')[0] as string;
      const tokenIsPkce = query.token?.startsWith(PKCE_PREFIX) ?? false;
      const fragment = (params: Record<string, string>) => redirectFragment(target, params, tokenIsPkce);
      try {
        if (!query.token || !query.type) throw authErrors.otpExpired();
        const verified = await consume(query.token, query.type, ctx);
        if ('accepted' in verified) return fragment({ message: EMAIL_CHANGE_ACCEPTED });
        const { user, pkce } = verified;
        if (pkce) {
          // PKCE: no tokens in the URL, only a single-use code the client exchanges with its verifier.
          const authCode = randomUUID();
          await db.query(
            `insert into auth_flow_state (user_id, auth_code, code_challenge, code_challenge_method, authentication_method, created_at)
             values ($1, $2, $3, $4, $5, $6)`,
            [
              user.id,
              authCode,
              pkce.challenge,
              pkce.method,
              query.type === 'recovery' ? 'recovery' : query.type,
              new Date(core.now()),
            ],
          );
          const url = new URL(target);
          url.searchParams.set('code', authCode);
          return url.toString();
        }
        const t = await core.signIn(user, amrMethod(query.type), ctx);
        return fragment({
          access_token: t.access_token,
          expires_at: String(t.expires_at),
          expires_in: String(t.expires_in),
          refresh_token: t.refresh_token,
          token_type: 'bearer',
          type: query.type,
        });
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        const oauth =
          error.status === 400
            ? 'invalid_request'
            : error.status === 401
              ? 'unauthorized_client'
              : error.status === 403
                ? 'access_denied'
                : 'server_error';
        return fragment({ error: oauth, error_code: error.code, error_description: error.message });
      }
    },
  };
}
