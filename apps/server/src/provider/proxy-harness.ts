import { Hono } from 'hono';
import type { AuthenticatedUser, VerifyAccessToken } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { providerProxy } from './proxy.js';

/** The provider proxy's tests: callers of each role, and a proxy in front of a recording upstream. */

export const PRIVATE_KEY = 'sk-server-held-must-never-leak';
export const callers: Record<string, AuthenticatedUser> = {
  // 'good-token' is an operator: the role the server's provider key needs.
  'good-token': { id: 'u1', email: 'ada@example.com', role: 'operator', appMetadata: { role: 'operator' } },
  'admin-token': { id: 'u2', email: 'boss@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: 'u3', email: 'joe@example.com', role: 'user', appMetadata: {} },
};
export const verify: VerifyAccessToken = async (token) => callers[token] ?? null;

export interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A proxy in front of a fake upstream that records what it was sent. */
export function proxyWithUpstream(
  answer: (req: Request) => Response | Promise<Response>,
  lines: string[] = [],
) {
  const seen: Seen[] = [];
  const app = new Hono();
  app.route(
    '/api/provider',
    providerProxy({
      verify,
      upstreamBaseUrl: 'https://api.provider.test/v0',
      privateKey: PRIVATE_KEY,
      logger: createLogger('debug', (l) => lines.push(l)),
      fetch: async (req) => {
        seen.push({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: req.body ? await req.text() : '',
        });
        return answer(req);
      },
    }),
  );
  return { app, seen, lines };
}

export const signedIn = { Authorization: 'Bearer good-token' };
