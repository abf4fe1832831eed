import type { Context } from 'hono';

/**
 * Per-client-address limits: who is asking is the socket's address, never a header (X-Forwarded-For
 * is whatever the caller wrote). A request without one (the server calling its own handler
 * in-process) is the server itself and is not limited.
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

/** Expands an IPv6 address to its eight groups, or null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  const [head = '', tail, ...more] = address.split('::');
  if (more.length) return null;
  const split = (s: string) => (s ? s.split(':') : []);
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups.map((g) => g.toLowerCase()) : null;
}

/**
 * The key an address is counted under: an IPv4 address as is (also when IPv4-mapped), an IPv6
 * address by its /64 network, which one subscriber usually holds whole.
 */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(bare);
  if (mapped) return mapped[1]!;
  const groups = bare.includes(':') ? ipv6Groups(bare) : null;
  return groups
    ? `${groups
        .slice(0, 4)
        .map((g) => Number.parseInt(g, 16).toString(16))
        .join(':')}::/64`
    : bare;
}

/** Keys remembered at once; the least recently seen are forgotten first. */
const MAX_KEYS = 10_000;

/**
 * At most `perMinute` events per key in any 60 s. `take` answers null when the event may go ahead,
 * else the seconds until it may (for Retry-After).
 */
export function createMinuteLimiter(perMinute: number, now: () => number = Date.now) {
  const hits = new Map<string, number[]>();
  return {
    take(key: string): number | null {
      const t = now();
      const recent = (hits.get(key) ?? []).filter((at) => t - at < 60_000);
      hits.delete(key);
      if (recent.length >= perMinute) {
        hits.set(key, recent);
        return Math.max(1, Math.ceil((recent[0]! + 60_000 - t) / 1000));
      }
      recent.push(t);
      hits.set(key, recent);
      if (hits.size > MAX_KEYS) hits.delete(hits.keys().next().value as string);
      return null;
    },
  };
}
