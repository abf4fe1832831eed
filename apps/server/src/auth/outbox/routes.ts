// /_mail: the outbox of the embedded auth (confirmation, recovery and admin mails), for the operator.
import type { Db } from '@engage/db';
import type { OutboxPage } from '@engage/http-contract';
import { Hono, type Context } from 'hono';
import { getOutboxMail, listOutbox } from '../mail.js';
import { isUuid } from '../tokens.js';
import { requireOutboxToken } from './access.js';
import { fromLoopback } from './loopback.js';
import { lockedPage, mailPage, noSuchMailPage, outboxPage } from './outbox-html.js';
import { outboxMail } from './outbox-json.js';

const wantsJson = (c: Context) => {
  const accept = c.req.header('Accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};

export interface MailRouteOptions {
  db: Db;
  /** The outbox token (auth/outbox/access.ts). */
  token: string;
  /** The cookie carries `Secure` (PUBLIC_URL is https). */
  secureCookie: boolean;
}

const LOCKED =
  'The outbox needs its token: open the "Mail outbox" link the server printed when it started, ' +
  'or add ?token= with mailOutboxToken from "npm run keys".';

/**
 * The outbox holds sign-in links (confirmation and recovery), so it is shown only with the outbox
 * token (a loopback socket proves nothing behind a reverse proxy on the same host), and, as a second
 * layer, only to this machine. Real deployments set SMTP_URL, which sends the mail instead.
 */
export function mailRoutes({ db, token, secureCookie }: MailRouteOptions): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return undefined;
  });
  app.use(
    '*',
    requireOutboxToken({
      token,
      secureCookie,
      refuse: (c) =>
        wantsJson(c)
          ? c.json({ error: 'outbox_token_required', message: LOCKED }, 401)
          : c.html(lockedPage(LOCKED), 401),
    }),
  );
  app.use('*', async (c, next) => {
    if (!fromLoopback(c)) {
      return c.text(
        'The outbox is only shown to requests from this machine. Set SMTP_URL to send real mail.',
        403,
      );
    }
    await next();
    return undefined;
  });

  app.get('/', async (c) => {
    const mails = await listOutbox(db);
    if (wantsJson(c))
      return c.json({ delivery: 'outbox', mails: mails.map(outboxMail) } satisfies OutboxPage);
    return c.html(outboxPage(mails));
  });

  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    const mail = isUuid(id) ? await getOutboxMail(db, id) : null;
    if (!mail) return c.html(noSuchMailPage(), 404);
    return c.html(mailPage(mail));
  });
  return app;
}
