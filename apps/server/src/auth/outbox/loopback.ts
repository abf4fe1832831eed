// The outbox's second layer (auth/outbox/routes.ts): only a request on a loopback socket sees it.
import type { Context } from 'hono';
import { connectionAddress } from '../../platform/client-address.js';

/** True for a request from this machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function fromLoopback(c: Context): boolean {
  // No socket (app.request in tests): not provably local.
  const address = connectionAddress(c);
  return !!address && (address === '::1' || /^(::ffff:)?127\./.test(address));
}
