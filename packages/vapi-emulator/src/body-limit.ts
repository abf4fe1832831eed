import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Default for `maxJsonBytes`: 1 MiB, as the server's MAX_JSON_BYTES. */
export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024;

/**
 * Caps every request body at `maxBytes` before a route reads it: a declared Content-Length is
 * checked first, a chunked body is counted as it arrives (Hono's bodyLimit). A multipart upload
 * to POST /file is left to that route's own, larger cap (`maxFileBytes`). 413 in the server's
 * house shape, with the provider's statusCode.
 */
export function emulatorBodyLimit(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot carry another request.
      c.header('Connection', 'close');
      return c.json(
        {
          error: 'payload_too_large',
          message: `The request body is too large: at most ${maxBytes} bytes.`,
          statusCode: 413,
        },
        413,
      );
    },
  });
  return async (c, next) => {
    // The pattern this middleware was mounted with ('/*' or '/provider/*') gives the emulator's root.
    const root = c.req.routePath.replace(/\/?\*$/, '');
    const upload =
      c.req.method === 'POST' &&
      c.req.path === `${root}/file` &&
      /^multipart\/form-data\s*(;|$)/i.test(c.req.header('content-type') ?? '');
    return upload ? next() : limit(c, next);
  };
}
