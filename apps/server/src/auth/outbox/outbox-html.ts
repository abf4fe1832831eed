// The outbox's pages (auth/outbox/routes.ts): pure rendering of what the route has read, no effects.
import { html, raw } from 'hono/html';
import type { OutboxRow } from '../mail.js';

type Html = ReturnType<typeof html>;

const page = (title: string, body: Html): Html =>
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

/** The page shown without the outbox token. */
export const lockedPage = (message: string): Html =>
  page(
    'Outbox locked',
    html`<main>
      <h1>Outbox locked</h1>
      <p>${message}</p>
    </main>`,
  );

/** The list of mails, newest first as given. */
export const outboxPage = (mails: readonly OutboxRow[]): Html =>
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
                          >${new Date(m.created_at).toISOString().replace('T', ' ').slice(0, 19)} UTC</time
                        >
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </main>`,
  );

/** The answer for an id that is no mail (or no id at all). */
export const noSuchMailPage = (): Html =>
  page(
    'Not found',
    html`<main>
      <h1>No such mail</h1>
      <p><a href="/_mail">Back to the outbox</a></p>
    </main>`,
  );

/** One mail: its HTML body is the server's own template (auth/mail.ts), rendered as is. */
export const mailPage = (mail: OutboxRow): Html =>
  page(
    mail.subject,
    html`<main>
      <p><a href="/_mail">Back to the outbox</a></p>
      <h1>${mail.subject}</h1>
      <p class="meta">To ${mail.to_address}</p>
      <article class="mail">${raw(mail.html_body)}</article>
    </main>`,
  );
