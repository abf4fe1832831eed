// Who may read /_mail: the holder of the outbox token (DATA_DIR/secrets.json, `npm run keys`).
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { sameSecret } from '../../platform/same-secret.js';
import { randomKey, type SecretStore } from '../../platform/secrets.js';

/** The secret's name in the store, and the key `npm run keys` prints. */
export const OUTBOX_TOKEN_NAME = 'mailOutboxToken';
export const OUTBOX_COOKIE = 'engage_outbox';
export const OUTBOX_PATH = '/_mail';

/**
 * The outbox token: MAIL_OUTBOX_TOKEN, else 32 random bytes (256 bits) generated once and kept 0600
 * in DATA_DIR (or in the database with DATABASE_URL).
 */
export const mailOutboxToken = (secrets: SecretStore, fromEnv?: string): string =>
  fromEnv ?? secrets.getOrCreate(OUTBOX_TOKEN_NAME, () => randomKey(32));

/** The URL an operator opens, on the configured public origin (never a request's Host). */
export const outboxUrl = (origin: string, token: string): string =>
  `${origin}${OUTBOX_PATH}?token=${encodeURIComponent(token)}`;

// A value longer than any token we generate is refused before it is hashed.
const presented = z.string().min(1).max(256);

/** Constant-time: the digests have one length whatever was sent, so nothing leaks through timing. */
export function tokenMatches(expected: string, candidate: string | undefined): boolean {
  if (!presented.safeParse(candidate).success) return false;
  return sameSecret(expected, candidate);
}

/** True when the caller wants a page (a browser's navigation), not data. */
const wantsPage = (c: Context) =>
  c.req.header('Sec-Fetch-Mode') === 'navigate' || (c.req.header('Accept') ?? '').includes('text/html');

/** The request URL's path and query without `token`, for the redirect that drops it from history. */
function withoutToken(c: Context): string {
  const url = new URL(c.req.url);
  url.searchParams.delete('token');
  return `${url.pathname}${url.search}`;
}

export interface OutboxAccessOptions {
  token: string;
  /** Set the cookie `Secure` (PUBLIC_URL is https). */
  secureCookie: boolean;
  /** The answer without the token: 401 and nothing of the outbox. */
  refuse: (c: Context) => Response | Promise<Response>;
}

/**
 * Lets a request through with the outbox token, as `?token=` or as the cookie a first visit with it
 * sets (HttpOnly, SameSite=Strict, Path=/_mail). A browser's visit with `?token=` is redirected to
 * the same URL without it, so the token stays out of its history and of any Referer.
 */
export function requireOutboxToken(options: OutboxAccessOptions): MiddlewareHandler {
  return async (c, next) => {
    const query = c.req.query('token');
    const byQuery = query !== undefined && tokenMatches(options.token, query);
    if (!byQuery && !tokenMatches(options.token, getCookie(c, OUTBOX_COOKIE))) return options.refuse(c);
    if (byQuery && c.req.method === 'GET' && wantsPage(c)) {
      setCookie(c, OUTBOX_COOKIE, options.token, {
        httpOnly: true,
        sameSite: 'Strict',
        path: OUTBOX_PATH,
        secure: options.secureCookie,
      });
      c.header('Cache-Control', 'no-store');
      return c.redirect(withoutToken(c), 303);
    }
    await next();
    return undefined;
  };
}
