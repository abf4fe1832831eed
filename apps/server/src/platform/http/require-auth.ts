import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bearerToken } from '../bearer-token.js';

/** What an account may do. */
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
  /** An anonymous user (AUTH_ANONYMOUS): its role is always 'user'. Absent means not anonymous. */
  isAnonymous?: boolean;
  /**
   * The token's assurance level ('aal2' once a second factor was used in its session). Absent
   * means aal1.
   */
  aal?: 'aal1' | 'aal2';
  /**
   * Whether the user has a verified second factor now (read at request time, not from the token):
   * such a user needs an aal2 token for every privileged route. Absent means no factor.
   */
  hasVerifiedFactor?: boolean;
}

/**
 * A member is a signed-in user with an account someone owns (an address). An anonymous session is
 * a visitor for every decision that separates visitors from members: the members' key, the
 * sign-in-only assistants, whether a call needs signing in.
 */
export const isMember = (user: AuthenticatedUser | null): user is AuthenticatedUser =>
  user !== null && user.isAnonymous !== true;

/** True when the user has a verified factor but this token did not use it (aal1). */
export const needsSecondFactor = (user: AuthenticatedUser): boolean =>
  user.hasVerifiedFactor === true && user.aal !== 'aal2';

export const MFA_REQUIRED_MESSAGE =
  'Enter the code from your authenticator app to continue: this account has two-factor authentication, and this session has not used it yet.';
export const MFA_ENROLLMENT_REQUIRED_MESSAGE =
  'Administrators must set up two-factor authentication first: add an authenticator app in your profile, then come back.';

/**
 * Verifies an access token (signature, expiry, and that its session is still live) and returns its
 * user, or null for any invalid token. Provided by the auth module: the embedded service checks its
 * own keys and sessions; hosted Supabase is checked against its JWKS.
 */
export type VerifyAccessToken = (token: string) => Promise<AuthenticatedUser | null>;

export type AuthEnv = { Variables: { user: AuthenticatedUser } };

/**
 * Stops the request with a JSON error in the house shape. Thrown, not returned, so the middleware
 * below never runs and the app's one `onError` answers it (`HTTPException#getResponse`).
 */
function deny(
  c: Context,
  status: 401 | 403,
  body: { error: string; message: string },
  headers?: Record<string, string>,
): never {
  throw new HTTPException(status, { res: c.json(body, status, headers), message: body.message });
}

/** The signed-in caller, or 401 (thrown) unless the request carries a valid access token. */
async function authenticate(c: Context<AuthEnv>, verify: VerifyAccessToken): Promise<AuthenticatedUser> {
  const token = bearerToken(c);
  const user = token ? await verify(token) : null;
  if (!user)
    deny(
      c,
      401,
      { error: 'unauthorized', message: 'Sign in to use this.' },
      { 'WWW-Authenticate': 'Bearer' },
    );
  c.set('user', user);
  return user;
}

/** 403 `mfa_required` (thrown) when the user has a verified factor and the token is aal1. */
function requireAssurance(c: Context, user: AuthenticatedUser): void {
  if (needsSecondFactor(user)) deny(c, 403, { error: 'mfa_required', message: MFA_REQUIRED_MESSAGE });
}

/**
 * 401 unless the request carries a valid access token, 403 `mfa_required` when the user has a
 * verified factor and the token is aal1 (half signed in); the user is then `c.get('user')`.
 */
export function requireUser(verify: VerifyAccessToken): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    requireAssurance(c, await authenticate(c, verify));
    await next();
  };
}

export interface RequireAdminOptions {
  /** ADMIN_REQUIRE_MFA: an admin without a verified factor gets 403 `mfa_enrollment_required`. */
  requireMfa?: boolean;
}

/**
 * 401 without a valid token, 403 `forbidden` for a signed-in user who is not an admin, 403
 * `mfa_required` for an admin with a verified factor whose token is aal1, and with `requireMfa`
 * 403 `mfa_enrollment_required` for an admin without a verified factor.
 */
export function requireAdmin(
  verify: VerifyAccessToken,
  options: RequireAdminOptions = {},
): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const user = await authenticate(c, verify);
    if (user.role !== 'admin')
      deny(c, 403, { error: 'forbidden', message: 'Only administrators can do this.' });
    requireAssurance(c, user);
    if (options.requireMfa && !user.hasVerifiedFactor)
      deny(c, 403, { error: 'mfa_enrollment_required', message: MFA_ENROLLMENT_REQUIRED_MESSAGE });
    await next();
  };
}

export const OPERATOR_REQUIRED_MESSAGE =
  "Only operators and administrators can use the server's provider key. Ask an administrator for access, or use your own private key.";

/**
 * 401 without a valid token, 403 unless the user is an operator or an admin (the server's provider
 * key), 403 `mfa_required` when the user has a verified factor and the token is aal1.
 */
export function requireOperator(verify: VerifyAccessToken): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const user = await authenticate(c, verify);
    if (user.role !== 'admin' && user.role !== 'operator')
      deny(c, 403, { error: 'operator_required', message: OPERATOR_REQUIRED_MESSAGE });
    requireAssurance(c, user);
    await next();
  };
}
