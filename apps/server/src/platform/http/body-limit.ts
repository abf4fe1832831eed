import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * One cap for request bodies on every route (JSON and anything else sent where JSON is expected),
 * so no route parses an unbounded body. Hono's middleware checks a declared Content-Length before
 * anything is read, and counts a body without one (chunked) as it arrives, holding at most the
 * limit. File uploads carry their own, larger caps and are let through by `exempt`.
 * @module
 */

/** Default for MAX_JSON_BYTES: 1 MiB, the emulator's own default (one number for both). */
export { DEFAULT_MAX_JSON_BYTES } from '@engage/vapi-emulator';

export interface BodyLimitOptions {
  maxBytes: number;
  /** Requests with a cap of their own (multipart file uploads); everything else is limited. */
  exempt?: (c: Context) => boolean;
}

/** 413 in the house shape. The rest of the body is never read, so the connection is not reused. */
export function payloadTooLarge(c: Context, maxBytes: number): Response {
  c.header('Connection', 'close');
  return c.json(
    { error: 'payload_too_large', message: `The request body is too large: at most ${maxBytes} bytes.` },
    413,
  );
}

export function jsonBodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: options.maxBytes,
    onError: (c) => payloadTooLarge(c, options.maxBytes),
  });
  return async (c, next) => {
    // A GET or HEAD has no body. Asking for one makes the Node adapter build a whole fetch Request
    // (an abort signal and a finaliser each): that halved the requests/s of GET /config.json and
    // grew the heap by hundreds of MB under load, until finalisers ran.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return options.exempt?.(c) ? next() : limit(c, next);
  };
}

/**
 * A multipart upload to one of `paths` (POST, exact path, Content-Type multipart/form-data): those
 * routes stream or cap the upload themselves. The same path with any other type is limited.
 */
export function isMultipartUpload(paths: readonly string[]): (c: Context) => boolean {
  return (c) =>
    c.req.method === 'POST' &&
    paths.includes(c.req.path) &&
    /^multipart\/form-data\s*(;|$)/i.test(c.req.header('content-type') ?? '');
}
