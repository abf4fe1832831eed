/**
 * An error the auth service answers with: an HTTP status, GoTrue's error code and a message safe to
 * show (never a secret or a hash). Routes turn it into the contract's body.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level fields of the body, e.g. `weak_password: { reasons }`. */
    readonly extra: Record<string, unknown> = {},
    /**
     * The input the refusal is about, for Engage's own routes (`{ error, message, field }`); never
     * part of an auth API answer, whose shape is GoTrue's.
     */
    readonly field: string | undefined = undefined,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export const isAuthError = (error: unknown): error is AuthError => error instanceof AuthError;

/** Shorthands for the errors raised in several places. */
export const authErrors = {
  /** A refused input; `field` names it for Engage's own routes. */
  validation: (message: string, field?: string) =>
    new AuthError(400, 'validation_failed', message, {}, field),
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail = 'invalid JWT') =>
    new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  sessionNotFound: (status = 403) =>
    new AuthError(status, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: (status = 404) => new AuthError(status, 'user_not_found', 'User not found'),
  otpExpired: (message = 'Email link is invalid or has expired') =>
    new AuthError(403, 'otp_expired', message),
  requestRateLimit: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimit: (seconds?: number) =>
    new AuthError(
      429,
      'over_email_send_rate_limit',
      seconds === undefined
        ? 'email rate limit exceeded'
        : `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
};
