import type { Db } from '@engage/db';
import { outboxQuerySchema, type MailDelivery, type OutboxPage } from '@engage/http-contract';
import type { Hono } from 'hono';
import { getOutboxMail, listOutbox } from '../auth/mail.js';
import { maskedOutboxMail, outboxMail } from '../auth/outbox/outbox-json.js';
import { isUuid } from '../auth/tokens.js';
import type { Config } from '../platform/config.js';
import type { AuthEnv } from '../platform/http/require-auth.js';
import { readQuery } from '../platform/json-body.js';
import type { AuditLog } from './audit.js';

/**
 * The mail outbox in the dashboard, behind the admin routes' check. Only when the local outbox is
 * where mail goes (embedded auth without SMTP_URL): newest first, bounded, each mail's links and
 * code masked, since they sign their recipient in. Revealing one mail is audited.
 */
export function mountAdminOutboxRoute(
  app: Hono<AuthEnv>,
  deps: { config: Config; db: Db; audit: AuditLog },
): void {
  const { embeddedAuth, SMTP_URL } = deps.config;
  const delivery: MailDelivery = !embeddedAuth ? 'hosted' : SMTP_URL ? 'smtp' : 'outbox';

  app.get('/outbox', async (c) => {
    const parsed = readQuery(c, outboxQuerySchema);
    if (!parsed.ok) return parsed.response;
    const rows = delivery === 'outbox' ? await listOutbox(deps.db, parsed.data.limit) : [];
    return c.json({ delivery, mails: rows.map(maskedOutboxMail) } satisfies OutboxPage);
  });

  app.post('/outbox/:id/reveal', async (c) => {
    const id = c.req.param('id');
    const row = delivery === 'outbox' && isUuid(id) ? await getOutboxMail(deps.db, id) : null;
    if (!row)
      return c.json({ error: 'mail_not_found', message: 'There is no such mail in the outbox.' }, 404);
    await deps.audit.record(
      c.get('user'),
      'outbox.reveal',
      [{ id: row.user_id as string, email: row.to_address }],
      row.subject,
    );
    return c.json({ mail: outboxMail(row) });
  });
}
