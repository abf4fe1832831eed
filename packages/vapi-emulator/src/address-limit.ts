import type { Context } from 'hono';

export { addressKey } from '@engage/rate-limit';

/**
 * Per-client-address limits: who is asking is the socket's address, never a header (X-Forwarded-For
 * is whatever the caller wrote). A request without one (the server calling its own handler
 * in-process) is the server itself and is not limited. The address rule (IPv6 by /64) and the
 * limiter are `@engage/rate-limit`'s, the same as the server's.
 * @module
 */

/** The caller's address, or undefined when the request did not come over a socket. */
export type ClientAddress = (c: Context) => string | undefined;

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The socket address as @hono/node-server (and @hono/node-ws for upgrades) passes it in `c.env`;
 * undefined for `app.fetch(request)` without bindings, i.e. in-process requests.
 */
export const socketAddress: ClientAddress = (c) => {
  const env = c.env as (NodeBindings & { server?: NodeBindings }) | undefined;
  return (env?.server ?? env)?.incoming?.socket?.remoteAddress || undefined;
};
