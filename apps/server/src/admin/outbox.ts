import type { Db } from '@engage/db';
import { outboxQuerySchema, type MailDelivery, type OutboxPage } from '@engage/http-contract';
import type { Hono } from 'hono';
import { listOutbox } from '../auth/mail.js';
import { outboxMail } from '../auth/outbox/outbox-json.js';
import type { Config } from '../platform/config.js';
import type { AuthEnv } from '../platform/http/require-auth.js';
import { readQuery } from '../platform/json-body.js';

/**
 * The mail outbox in the dashboard: newest first, bounded, each mail with its links. Mounted
 * on the admin routes, behind their admin check.
 */
export function mountAdminOutboxRoute(app: Hono<AuthEnv>, deps: { config: Config; db: Db }): void {
  app.get('/outbox', async (c) => {
    const parsed = readQuery(c, outboxQuerySchema);
    if (!parsed.ok) return parsed.response;
    const { embeddedAuth, SMTP_URL } = deps.config;
    const delivery: MailDelivery = !embeddedAuth ? 'hosted' : SMTP_URL ? 'smtp' : 'outbox';
    const rows = delivery === 'hosted' ? [] : await listOutbox(deps.db, parsed.data.limit);
    return c.json({ delivery, mails: rows.map(outboxMail) } satisfies OutboxPage);
  });
}
