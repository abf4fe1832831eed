// /_mail: the outbox of the embedded auth (confirmation, recovery and admin mails), for local use.
import { Hono, type Context } from 'hono';
import { html, raw } from 'hono/html';
import { getOutboxMail, listOutbox } from '../auth/mail.js';
import { isUuid } from '../auth/tokens.js';
import type { Db } from '../db/types.js';
import { connectionAddress } from '../lib/client-address.js';

const page = (title: string, body: ReturnType<typeof html>) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
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

/**
 * The outbox holds sign-in links (confirmation and recovery), so it is served to this machine only:
 * on a server reachable from elsewhere, anyone could otherwise open another user's recovery link.
 * Real deployments set SMTP_URL, which sends the mail instead.
 */
export function mailRoutes(db: Db): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    if (!fromLoopback(c)) {
      return c.text(
        'The outbox is only shown to requests from this machine. Set SMTP_URL to send real mail.',
        403,
        { 'Cache-Control': 'no-store' },
      );
    }
    await next();
    c.header('Cache-Control', 'no-store');
    return undefined;
  });

  app.get('/', async (c) => {
    const mails = await listOutbox(db);
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
