// /_mail: the outbox of the embedded auth (confirmation, recovery and admin mails), for the operator.
import type { OutboxMail, OutboxPage } from '@engage/http-contract';
import { Hono, type Context } from 'hono';
import { html, raw } from 'hono/html';
import { getOutboxMail, listOutbox, type OutboxRow } from '../auth/mail.js';
import { isUuid } from '../auth/tokens.js';
import type { Db } from '../db/types.js';
import { connectionAddress } from '../lib/client-address.js';
import { requireOutboxToken } from './mail-access.js';

const page = (title: string, body: ReturnType<typeof html>) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <style>
          body {
            font-family: system-ui, sans-serif;
            max-width: 56rem;
            margin: 2rem auto;
            padding: 0 1rem;
            color: #0f172a;
          }
          table {
            border-collapse: collapse;
            width: 100%;
          }
          th,
          td {
            text-align: left;
            padding: 0.5rem;
            border-bottom: 1px solid #e2e8f0;
            vertical-align: top;
          }
          a {
            color: #0369a1;
          }
          .mail {
            border: 1px solid #e2e8f0;
            border-radius: 0.5rem;
            padding: 1rem 1.5rem;
          }
          .meta {
            color: #475569;
          }
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;

/** True for a request from this machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function fromLoopback(c: Context): boolean {
  // No socket (app.request in tests): not provably local.
  const address = connectionAddress(c);
  return !!address && (address === '::1' || /^(::ffff:)?127\./.test(address));
}

/** The links of a mail (the templates end with "Label: https://…", auth/mail.ts). */
export function mailLinks(text: string): { label: string; href: string }[] {
  return [...text.matchAll(/^([^\n:]{1,100}): (https?:\/\/\S+)$/gm)].map(([, label, href]) => ({
    label: label as string,
    href: href as string,
  }));
}

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

const wantsJson = (c: Context) => {
  const accept = c.req.header('Accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};

export interface MailRouteOptions {
  db: Db;
  /** The outbox token (routes/mail-access.ts). */
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
          : c.html(
              page(
                'Outbox locked',
                html`<main>
                  <h1>Outbox locked</h1>
                  <p>${LOCKED}</p>
                </main>`,
              ),
              401,
            ),
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
    return c.html(
      page(
        'Outbox',
        html`<main>
          <h1>Outbox</h1>
          <p class="meta">Mail of the embedded auth service, newest first. Nothing here has been sent.</p>
          ${
            mails.length === 0
              ? html`<p>No mail yet.</p>`
              : html`<table>
                  <thead>
                    <tr>
                      <th scope="col">To</th>
                      <th scope="col">Subject</th>
                      <th scope="col">Sent</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${mails.map(
                      (m) =>
                        html`<tr>
                          <td>${m.to_address}</td>
                          <td><a href="/_mail/${m.id}">${m.subject}</a></td>
                          <td>
                            <time datetime="${new Date(m.created_at).toISOString()}"
                              >${new Date(m.created_at).toISOString().replace('T', ' ').slice(0, 19)}
                              UTC</time
                            >
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
          }
        </main>`,
      ),
    );
  });

  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    const mail = isUuid(id) ? await getOutboxMail(db, id) : null;
    if (!mail)
      return c.html(
        page(
          'Not found',
          html`<main>
            <h1>No such mail</h1>
            <p><a href="/_mail">Back to the outbox</a></p>
          </main>`,
        ),
        404,
      );
    return c.html(
      page(
        mail.subject,
        html`<main>
          <p><a href="/_mail">Back to the outbox</a></p>
          <h1>${mail.subject}</h1>
          <p class="meta">To ${mail.to_address}</p>
          <article class="mail">${raw(mail.html_body)}</article>
        </main>`,
      ),
    );
  });
  return app;
}
