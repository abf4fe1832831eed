// How GoTrue's routes read a request and answer an error: the shapes supabase-js expects, kept
// apart from Engage's own API (platform/json-body.ts), whose error shape is Engage's.
import type { Context } from 'hono';
import { clientIp } from '../../platform/client-address.js';
import { AuthError, authErrors } from '../errors.js';
import { OAuthError, type RequestContext } from '../service.js';

/** Who sent the request: links, redirects and issuers come from the configured origin, never from it. */
export const requestContext = (c: Context): RequestContext => ({
  ip: clientIp(c),
  userAgent: c.req.header('user-agent'),
});

const API_VERSION = '2024-01-01';

/** True when the request opts into the 2024-01-01 error shape (a parsable date at or after it). */
function wantsNewErrors(c: Context): boolean {
  const value = c.req.header('x-supabase-api-version');
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return false;
  return value >= API_VERSION;
}

/** The contract's error body for the request's API version, with the version echo. */
export function errorResponse(c: Context, error: AuthError): Response {
  c.header('x-sb-error-code', error.code);
  if (error instanceof OAuthError)
    return c.json({ error: error.oauthError, error_description: error.message }, error.status as 400);
  if (wantsNewErrors(c)) {
    c.header('X-Supabase-Api-Version', API_VERSION);
    return c.json({ code: error.code, message: error.message, ...error.extra }, error.status as 400);
  }
  return c.json(
    { code: error.status, error_code: error.code, msg: error.message, ...error.extra },
    error.status as 400,
  );
}

/**
 * Reads a JSON body; an empty body is `{}` (supabase-js sends none on logout and factor deletes).
 * A NUL character in any string or key is refused (400 `validation_failed`): PostgreSQL's text and
 * jsonb cannot hold it, so it would otherwise surface as a 500 from the database.
 */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let nul = false;
  let body: unknown;
  try {
    body = JSON.parse(text, (key, value: unknown) => {
      if (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) nul = true;
      return value;
    });
  } catch (error) {
    // V8's message quotes the text around the fault, which may be the caller's password: only the
    // position is kept.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON${at ? ` (error at position ${at})` : ''}`,
    );
  }
  if (nul) throw authErrors.validation('Invalid request body: NUL characters are not allowed');
  return body;
}
