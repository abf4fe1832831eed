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
});
