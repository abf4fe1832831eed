// The mails that carry a one-time token (confirmation, magic link, recovery, invite, email change,
// reauthentication) and the links in them. generate_link uses `prepareLink` without mailing.
import type { AuthCore } from './core.js';
import { issueToken, verifyUrl, type IssuedToken, type TokenSlot } from './link-tokens.js';
import { mailTemplates, type Mail } from './mail.js';
import type { Pkce } from './redirects.js';
import type { UserRow } from './users.js';

/** The link kinds of POST /admin/generate_link (GoTrue's names). */
export type LinkKind =
  'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change_current' | 'email_change_new';

const SLOT: Record<LinkKind, TokenSlot> = {
  signup: 'confirmation',
  invite: 'confirmation',
  magiclink: 'recovery',
  recovery: 'recovery',
  email_change_current: 'email_change_current',
  email_change_new: 'email_change_new',
};

/** The `type` of the link's /verify URL (generate_link's `verification_type`). */
export const verificationType = (kind: LinkKind) => (kind.startsWith('email_change') ? 'email_change' : kind);

/** The user column stamped when a link of the kind is made (also the resend interval's clock). */
const SENT_AT: Record<LinkKind, string> = {
  signup: 'confirmation_sent_at',
  invite: 'invited_at = $2, confirmation_sent_at',
  magiclink: 'recovery_sent_at',
  recovery: 'recovery_sent_at',
  email_change_current: 'email_change_sent_at',
  email_change_new: 'email_change_sent_at',
};

export interface PreparedLink extends IssuedToken {
  link: string;
}

/**
 * What an unconfirmed account's confirmation will activate, written with its token: the password
 * hash (null for none) and, from a sign-up, its metadata. Only the party that triggered the mail
 * chose these, and the mail's token is the only live one, so confirming never activates a password
 * some earlier stranger set (docs/security.md, "Sign-up of an unconfirmed address").
 */
export interface PendingSignup {
  passwordHash: string | null;
  metadata?: Record<string, unknown>;
}

export type LinkMail = ReturnType<typeof createLinkMail>;

export function createLinkMail(core: AuthCore) {
  const { db, mailer } = core;
  const title = core.opts.siteTitle;
  const at = () => new Date(core.now());

  /** Issues the token of a link kind and stamps its `*_sent_at`; no resend check, no mail. */
  async function prepareLink(
    user: UserRow,
    kind: LinkKind,
    redirectTo: string,
    pkce: Pkce | null = null,
    pending?: PendingSignup,
  ): Promise<PreparedLink> {
    const address = kind === 'email_change_new' ? (user.email_change ?? user.email) : user.email;
    // An invitation is accepted by choosing a password: none set before it survives.
    const replace = kind === 'invite' ? { passwordHash: null, ...pending } : pending;
    const made = await db.transaction(async (tx) => {
      if (replace)
        await tx.query(
          `update auth_users set encrypted_password = $2,
             raw_user_meta_data = coalesce($3::jsonb, raw_user_meta_data), updated_at = now()
           where id = $1 and email_confirmed_at is null`,
          [
            user.id,
            replace.passwordHash,
            replace.metadata === undefined ? null : JSON.stringify(replace.metadata),
          ],
        );
      const issued = await issueToken(tx, core.tokenSecret, user.id, address, SLOT[kind], pkce, at());
      await tx.query(`update auth_users set ${SENT_AT[kind]} = $2 where id = $1`, [user.id, at()]);
      return issued;
    });
    return { ...made, link: verifyUrl(core.siteUrl(), made.tokenHash, verificationType(kind), redirectTo) };
  }

  const send = (user: UserRow, kind: Mail['kind'], to: string, body: Omit<Mail, 'userId' | 'kind' | 'to'>) =>
    mailer.send({ userId: user.id, kind, to, ...body });

  return {
    prepareLink,

    /**
     * The sign-up confirmation (also re-sent by /resend and /otp for an unconfirmed address);
     * `pending` replaces what confirming it activates (a later sign-up, or /otp: no password).
     */
    async sendConfirmation(
      user: UserRow,
      redirectTo: string,
      pkce: Pkce | null = null,
      pending?: PendingSignup,
    ) {
      core.checkResend(user.confirmation_sent_at);
      const { link, code } = await prepareLink(user, 'signup', redirectTo, pkce, pending);
      await send(user, 'confirmation', user.email, mailTemplates.confirmation(title, link, code));
    },

    /**
     * A sign-up with an address that already has an account: tells its owner, at most once per
     * resend interval (the confirmation's clock, so a repeat answers as a new address's would).
     */
    async sendExistingAccount(user: UserRow, signInUrl: string) {
      core.checkResend(user.confirmation_sent_at);
      await db.query('update auth_users set confirmation_sent_at = $2 where id = $1', [user.id, at()]);
      await send(user, 'existing_account', user.email, mailTemplates.existingAccount(title, signInUrl));
    },

    async sendRecovery(user: UserRow, redirectTo: string, pkce: Pkce | null = null) {
      core.checkResend(user.recovery_sent_at);
      const { link, code } = await prepareLink(user, 'recovery', redirectTo, pkce);
      await send(user, 'recovery', user.email, mailTemplates.recovery(title, link, code));
    },

    /** One mail with a sign-in link and its six-digit code (POST /otp). */
    async sendMagicLink(user: UserRow, redirectTo: string, pkce: Pkce | null = null) {
      core.checkResend(user.recovery_sent_at);
      const { link, code } = await prepareLink(user, 'magiclink', redirectTo, pkce);
      await send(user, 'magic_link', user.email, mailTemplates.magicLink(title, link, code));
    },

    async sendInvite(user: UserRow, redirectTo: string) {
      const { link, code } = await prepareLink(user, 'invite', redirectTo);
      await send(user, 'invite', user.email, mailTemplates.invite(title, link, code));
    },

    /**
     * GoTrue's secure email change: records `newEmail` as pending and mails a link to each address;
     * the change happens when both are confirmed (verify.ts).
     */
    async sendEmailChange(user: UserRow, newEmail: string, redirectTo: string, pkce: Pkce | null) {
      core.checkResend(user.email_change_sent_at);
      // An anonymous user has no current address to confirm from: its one half is the new address,
      // so that half counts as the second (verify.ts applies the change and ends the anonymity).
      const firstHalfDone = user.email === '' ? 1 : 0;
      await db.query(
        'update auth_users set email_change = $2, email_change_confirm_status = $3 where id = $1',
        [user.id, newEmail, firstHalfDone],
      );
      const pending = { ...user, email_change: newEmail };
      const { email } = user;
      if (email) {
        const current = await prepareLink(pending, 'email_change_current', redirectTo, pkce);
        await send(
          user,
          'email_change',
          email,
          mailTemplates.emailChange(title, current.link, current.code, email, newEmail),
        );
      }
      const next = await prepareLink(pending, 'email_change_new', redirectTo, pkce);
      await send(
        user,
        'email_change',
        newEmail,
        mailTemplates.emailChange(title, next.link, next.code, email, newEmail),
      );
    },

    /** The nonce of GET /reauthenticate: a code only, checked by PUT /user. */
    async sendReauthentication(user: UserRow) {
      core.checkResend(user.reauthentication_sent_at);
      const { code } = await db.transaction(async (tx) => {
        const issued = await issueToken(
          tx,
          core.tokenSecret,
          user.id,
          user.email,
          'reauthentication',
          null,
          at(),
        );
        await tx.query('update auth_users set reauthentication_sent_at = $2 where id = $1', [user.id, at()]);
        return issued;
      });
      await send(user, 'reauthentication', user.email, mailTemplates.reauthentication(title, code));
    },

    async notifyAdmins(user: UserRow) {
      for (const admin of core.opts.adminEmails) {
        await mailer.send({
          userId: user.id,
          kind: 'admin_signup_notification',
          to: admin,
          ...mailTemplates.adminSignup(title, user.email),
        });
      }
    },
  };
}
