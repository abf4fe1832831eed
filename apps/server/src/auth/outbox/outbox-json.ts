// The outbox as JSON, one shape for both readers: GET /_mail (auth/outbox/routes.ts) and
// GET /api/admin/outbox (admin/routes.ts).
import type { OutboxMail } from '@engage/http-contract';
import type { OutboxRow } from '../mail.js';
import { mailLinks } from './links.js';

/** A row of the outbox as the JSON forms answer it (GET /_mail as JSON, GET /api/admin/outbox). */
export const outboxMail = (row: OutboxRow): OutboxMail => ({
  id: row.id,
  kind: row.kind,
  to: row.to_address,
  subject: row.subject,
  created_at: new Date(row.created_at).toISOString(),
  text: row.text_body,
  links: mailLinks(row.text_body),
  masked: false,
});

const URL_IN_TEXT = /https?:\/\/\S+/g;
const CODE_IN_TEXT = /\b\d{6}\b/g;

/**
 * The mail with what signs its recipient in hidden: its links' addresses and its six-digit code
 * (the dashboard's list; an admin reveals one mail at a time, audited).
 */
export function maskedOutboxMail(row: OutboxRow): OutboxMail {
  const mail = outboxMail(row);
  const text = mail.text.replace(URL_IN_TEXT, '[link hidden]').replace(CODE_IN_TEXT, '••••••');
  if (text === mail.text && mail.links.length === 0) return mail;
  return { ...mail, text, links: mail.links.map(({ label }) => ({ label, href: '' })), masked: true };
}
