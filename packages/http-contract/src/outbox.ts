/**
 * The mail outbox of the embedded auth: GET /api/admin/outbox (admins) and GET /_mail as JSON (the
 * outbox token). Newest first, bounded by `limit`.
 */
import { z } from 'zod';

/** A link a mail carries (confirmation, recovery, sign-in, invitation). */
export const outboxLinkSchema = z.object({
  label: z.string(),
  href: z.string(),
});
export type OutboxLink = z.infer<typeof outboxLinkSchema>;

export const outboxMailSchema = z.object({
  id: z.string(),
  /** confirmation, recovery, magic_link, invite, email_change, reauthentication, existing_account, admin_signup_notification */
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  /** ISO 8601. */
  created_at: z.string(),
  /** The plain-text body (its one-time code, if any, is in it; masked in the dashboard's list). */
  text: z.string(),
  /** Its links; in the dashboard's list each `href` is '' until the mail is revealed. */
  links: z.array(outboxLinkSchema),
  /**
   * True in the dashboard's list when the mail's links and code are hidden (they sign their
   * recipient in): POST /api/admin/outbox/{id}/reveal answers the whole mail, and is audited.
   */
  masked: z.boolean(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

/**
 * Where mail goes: kept in the outbox (embedded auth without SMTP_URL), sent through SMTP (the
 * outbox keeps nothing new), or sent by hosted Supabase (no outbox at all).
 */
export const mailDeliverySchema = z.enum(['outbox', 'smtp', 'hosted']);
export type MailDelivery = z.infer<typeof mailDeliverySchema>;

export const outboxPageSchema = z.object({
  delivery: mailDeliverySchema,
  mails: z.array(outboxMailSchema),
});
export type OutboxPage = z.infer<typeof outboxPageSchema>;

/** GET /api/admin/outbox?limit= (1–100, default 50). */
export const outboxQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit is at least 1.')
    .max(100, 'limit is at most 100.')
    .default(50),
});
