import type { Queryable } from '@engage/db';
import nodemailer from 'nodemailer';

export interface Mail {
  /** The user the mail concerns (deleted with it). */
  userId: string | null;
  kind:
    | 'confirmation'
    | 'recovery'
    | 'magic_link'
    | 'invite'
    | 'email_change'
    | 'reauthentication'
    | 'existing_account'
    | 'admin_signup_notification'
    | 'visitor_answer';
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface OutboxRow {
  id: string;
  user_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Date;
}

/** Keeps mail in the `mail_outbox` table, to be read at /_mail (embedded mode). */
export function outboxMailer(db: Queryable): Mailer {
  return {
    async send(mail) {
      await db.query(
        `insert into mail_outbox (user_id, kind, to_address, subject, text_body, html_body)
         values ($1, $2, $3, $4, $5, $6)`,
        [mail.userId, mail.kind, mail.to, mail.subject, mail.text, mail.html],
      );
    },
  };
}

/** Sends mail through SMTP (SMTP_URL, e.g. smtp://user:pass@host:587). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
  };
}

/** The site's mail: through SMTP_URL when set, else kept in the outbox. */
export function siteMailer(
  config: { SMTP_URL?: string | undefined; siteTitle: string; ownerDomain: string },
  db: Queryable,
): Mailer {
  return config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, `${config.siteTitle} <no-reply@${config.ownerDomain}>`)
    : outboxMailer(db);
}

export async function listOutbox(db: Queryable, limit = 100): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    'select * from mail_outbox order by created_at desc, id limit $1',
    [limit],
  );
  return rows;
}

export async function getOutboxMail(db: Queryable, id: string): Promise<OutboxRow | null> {
  const { rows } = await db.query<OutboxRow>('select * from mail_outbox where id = $1', [id]);
  return rows[0] ?? null;
}

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function render(title: string, paragraphs: string[], link?: { href: string; label: string }) {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : [])].join('\n\n');
  const html =
    `<h2>${escapeHtml(title)}</h2>` +
    paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    (link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '');
  return { text, html };
}

export const mailTemplates = {
  confirmation(siteTitle: string, link: string, otp: string) {
    return {
      subject: 'Confirm your signup',
      ...render(
        'Confirm your signup',
        [`Follow this link to confirm your account at ${siteTitle}.`, `Or enter this code: ${otp}`],
        { href: link, label: 'Confirm your email address' },
      ),
    };
  },
  recovery(siteTitle: string, link: string, otp: string) {
    return {
      subject: 'Reset your password',
      ...render(
        'Reset your password',
        [`Follow this link to choose a new password for ${siteTitle}.`, `Or enter this code: ${otp}`],
        { href: link, label: 'Reset password' },
      ),
    };
  },
  magicLink(siteTitle: string, link: string, otp: string) {
    return {
      subject: 'Your sign-in link',
      ...render(
        'Your sign-in link',
        [`Follow this link to sign in to ${siteTitle}.`, `Or enter this code: ${otp}`],
        { href: link, label: 'Sign in' },
      ),
    };
  },
  invite(siteTitle: string, link: string, otp: string) {
    return {
      subject: 'You have been invited',
      ...render(
        'You have been invited',
        [
          `You have been invited to create an account at ${siteTitle}. Follow this link to accept.`,
          `Or enter this code: ${otp}`,
        ],
        { href: link, label: 'Accept the invitation' },
      ),
    };
  },
  /**
   * Sent to both addresses of an email change: each must be confirmed. An anonymous user has no
   * `from`: its one mail adds the address to the account.
   */
  emailChange(siteTitle: string, link: string, otp: string, from: string, to: string) {
    if (!from)
      return {
        subject: 'Confirm your email address',
        ...render(
          'Confirm your email address',
          [
            `Follow this link to add ${to} to your ${siteTitle} account and keep what you have done so far.`,
            `Or enter this code: ${otp}`,
          ],
          { href: link, label: 'Confirm your address' },
        ),
      };
    return {
      subject: 'Confirm your email change',
      ...render(
        'Confirm your email change',
        [
          `Follow this link to confirm changing the email of your ${siteTitle} account from ${from} to ${to}.`,
          'A link was sent to both addresses; the change happens once both are confirmed.',
          `Or enter this code: ${otp}`,
        ],
        { href: link, label: 'Confirm the change' },
      ),
    };
  },
  reauthentication(siteTitle: string, otp: string) {
    return {
      subject: 'Confirm it is you',
      ...render('Confirm it is you', [
        `Enter this code to confirm a change to your ${siteTitle} account: ${otp}`,
        'If you did not ask for it, you can ignore this mail.',
      ]),
    };
  },
  /**
   * To the owner of an address that already has an account, when someone signs up with it again:
   * the sign-up screen says the same as for a new address (no enumeration), and this mail is what
   * actually happened.
   */
  existingAccount(siteTitle: string, signInUrl: string) {
    return {
      subject: 'You already have an account',
      ...render(
        'You already have an account',
        [
          `Someone, probably you, just tried to sign up at ${siteTitle} with this address, which already has an account.`,
          'Sign in with your password instead; if you have forgotten it, choose "Forgot your password?" on the sign-in screen to reset it.',
          'If it was not you, you can ignore this mail: nothing has changed.',
        ],
        { href: signInUrl, label: 'Sign in' },
      ),
    };
  },
  adminSignup(siteTitle: string, email: string) {
    return {
      subject: `New signup: ${email}`,
      ...render('New signup request', [
        `${email} signed up at ${siteTitle} and has been sent a confirmation link.`,
        'You can review accounts in the admin dashboard.',
      ]),
    };
  },
};
