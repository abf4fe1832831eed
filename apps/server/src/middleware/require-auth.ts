import type { MiddlewareHandler } from 'hono';

/** What an account may do (ARCHITECTURE.md, "Roles and what they may do"). */
export type UserRole = 'admin' | 'operator' | 'user';

/** The role app_metadata grants: its `role` when 'admin' or 'operator', else 'user'. */
export function roleOf(appMetadata: Record<string, unknown> | null | undefined): UserRole {
  const role = appMetadata?.role;
  return role === 'admin' || role === 'operator' ? role : 'user';
}

/** The caller of a protected route, as established from a verified access token. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  /** app_metadata.role when it is 'admin' or 'operator'; 'user' for anything else or none. */
  role: UserRole;
  appMetadata: Record<string, unknown>;
}

/**
 * Verifies an access token (signature, expiry, and that its session is still live) and returns its
 * user, or null for any invalid token. Provided by the auth module: the embedded service checks its
 * own keys and sessions; hosted Supabase is checked against its JWKS.
 */
export type VerifyAccessToken = (token: string) => Promise<AuthenticatedUser | null>;

export type AuthEnv = { Variables: { user: AuthenticatedUser } };

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** 401 unless the request carries a valid access token; the user is then `c.get('user')`. */
export function requireUser(verify: VerifyAccessToken): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const token = bearer(c.req.header('Authorization'));
    const user = token ? await verify(token) : null;
    if (!user) {
      return c.json({ error: 'unauthorized', message: 'Sign in to use this.' }, 401, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    c.set('user', user);
    await next();
    return undefined;
  };
}

/** 401 without a valid token, 403 for a signed-in user who is not an admin. */
export function requireAdmin(verify: VerifyAccessToken): MiddlewareHandler<AuthEnv> {
  const userCheck = requireUser(verify);
  return async (c, next) =>
    userCheck(c, async () => {
      if (c.get('user').role !== 'admin') {
        c.res = c.json({ error: 'forbidden', message: 'Only administrators can do this.' }, 403);
        return;
      }
      await next();
    });
}

export const OPERATOR_REQUIRED_MESSAGE =
  "Only operators and administrators can use the server's provider key. Ask an administrator for access, or use your own private key.";

/** 401 without a valid token, 403 unless the user is an operator or an admin (the server's provider key). */
export function requireOperator(verify: VerifyAccessToken): MiddlewareHandler<AuthEnv> {
  const userCheck = requireUser(verify);
  return async (c, next) =>
    userCheck(c, async () => {
      const { role } = c.get('user');
      if (role !== 'admin' && role !== 'operator') {
        c.res = c.json({ error: 'operator_required', message: OPERATOR_REQUIRED_MESSAGE }, 403);
        return;
      }
      await next();
    });
}
