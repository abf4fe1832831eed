// Mail-link endpoints: POST /recover, /resend, /otp (magic link + code), /invite and
// POST /admin/generate_link (GoTrue's otp.go, invite.go, admin generate_link).
import type { AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import { generateLink } from './generate-link.js';
import { type LinkMail } from './link-mail.js';
import { parsePkce } from './redirects.js';
import { inviteBody, otpBody, parseBody, recoverBody, resendBody } from './schemas.js';
import type { RequestContext } from './types.js';
import { createUser, emailExists, normalizeEmail } from './user-store.js';
import { findUserByEmail, findUserById, userJson, type UserRow } from './users.js';

const phoneDisabled = () => new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');

export type LinksApi = ReturnType<typeof createLinksApi>;

export function createLinksApi(core: AuthCore, mail: LinkMail) {
  const { db } = core;
  const fresh = async (user: UserRow) => (await findUserById(db, user.id)) ?? user;

  /** Creates an invited user (no usable password) or re-invites an unconfirmed one. */
  async function inviteUser(email: string, redirectTo?: string, data?: Record<string, unknown> | null) {
    const address = normalizeEmail(email);
    let user = await findUserByEmail(db, address);
    if (user?.email_confirmed_at) throw emailExists();
    user ??= await createUser(db, { email: address, userMetadata: data ?? {}, hashPassword: core.hash });
    await mail.sendInvite(user, core.redirect(redirectTo));
    return fresh(user);
  }

  /**
   * A confirmed user's magic link, or for a new or unconfirmed address the sign-up confirmation
   * (which drops a pending password).
   */
  async function magicLinkOrConfirmation(
    user: UserRow,
    redirect: string,
    pkce: ReturnType<typeof parsePkce>,
  ) {
    if (user.email_confirmed_at) return mail.sendMagicLink(user, redirect, pkce);
    // Whoever asked gave no password: confirming this mail activates none a sign-up set.
    return mail.sendConfirmation(user, redirect, pkce, { passwordHash: null });
  }

  return {
    inviteUser,

    /** POST /recover: 200 {} whether or not the address exists. */
    async recover(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(recoverBody, body);
      await core.limit('recover', ctx.ip);
      if (!input.email) throw authErrors.validation('Password recovery requires an email');
      const email = normalizeEmail(input.email);
      const pkce = parsePkce(input.code_challenge, input.code_challenge_method);
      const user = await findUserByEmail(db, email);
      if (user) await mail.sendRecovery(user, core.redirect(redirectTo), pkce);
      return {};
    },

    /**
     * POST /resend (signup, email_change): the pending mail again. Unknown addresses and ones with
     * nothing pending get the same `{}` and no mail (no enumeration).
     */
    async resend(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(resendBody, body);
      await core.limit('signup', ctx.ip);
      if (input.type === 'sms' || input.type === 'phone_change') throw phoneDisabled();
      if (input.type !== 'signup' && input.type !== 'email_change')
        throw authErrors.validation(`Resend type "${input.type}" is not supported by this server`);
      if (!input.email) throw authErrors.validation('An email address is required');
      const user = await findUserByEmail(db, normalizeEmail(input.email));
      const redirect = core.redirect(redirectTo);
      if (input.type === 'signup' && user && !user.email_confirmed_at)
        await mail.sendConfirmation(user, redirect);
      if (input.type === 'email_change' && user?.email_change)
        await mail.sendEmailChange(user, user.email_change, redirect, null);
      return {};
    },

    /**
     * POST /otp (email): one mail with a sign-in link and its six-digit code. An unknown address is
     * signed up (a confirmation mail, which signs in too) unless `create_user` is false: then 422
     * `otp_disabled`, as GoTrue answers.
     */
    async otp(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(otpBody, body);
      await core.limit('signup', ctx.ip);
      if (input.phone && !input.email) throw phoneDisabled();
      if (!input.email) throw authErrors.validation('An email address is required');
      const email = normalizeEmail(input.email);
      const pkce = parsePkce(input.code_challenge, input.code_challenge_method);
      const redirect = core.redirect(redirectTo);
      let user = await findUserByEmail(db, email);
      if (!user) {
        if (input.create_user === false)
          throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
        try {
          user = await createUser(db, {
            hashPassword: core.hash,
            email,
            userMetadata: input.data ?? {},
            emailConfirm: core.autoconfirm,
          });
        } catch (error) {
          // Two requests raced to create the address: the second mails the first one's user.
          user = await findUserByEmail(db, email);
          if (!user) throw error;
        }
        await magicLinkOrConfirmation(user, redirect, pkce);
        await mail.notifyAdmins(user);
        return {};
      }
      await magicLinkOrConfirmation(user, redirect, pkce);
      return {};
    },

    /** POST /invite (service role): the invited user, mailed a link to accept. */
    async invite(body: unknown, redirectTo: string | undefined) {
      const input = parseBody(inviteBody, body);
      if (!input.email) throw authErrors.validation('An email address is required');
      return userJson(await inviteUser(input.email, redirectTo, input.data));
    },

    /** POST /admin/generate_link: the link of a mail, not sent; the user as a flat object with it. */
    generateLink: (body: unknown, redirectTo?: string) => generateLink(core, mail, body, redirectTo),

    /** Mails a user a recovery link (the admin dashboard's "Send password recovery"). */
    async sendRecoveryTo(user: UserRow, redirectTo?: string) {
      await mail.sendRecovery(user, core.redirect(redirectTo));
    },

    /** Mails a user a magic link, or the confirmation if the address is not confirmed yet. */
    async sendMagicLinkTo(user: UserRow, redirectTo?: string) {
      await magicLinkOrConfirmation(user, core.redirect(redirectTo), null);
    },
  };
}
