import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address of the socket a request came in on, for per-address limits. Never a header:
 * X-Forwarded-For is whatever the caller wrote. Undefined when there is no socket: the server
 * calling its own handler in-process (its proxy, `app.fetch`), which is not limited by address.
 */
export function connectionAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address || undefined;
  } catch {
    return undefined;
  }
}

/** {@link connectionAddress} as a key for limits and audit rows: 'unknown' without a socket. */
export function clientIp(c: Context): string {
  return connectionAddress(c) ?? 'unknown';
}
