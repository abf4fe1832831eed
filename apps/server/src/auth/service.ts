// The embedded auth service: GoTrue's flows (AUTH-CONTRACT §2) over the Db interface.
// Framework-free: the Hono routes in routes/auth.ts parse HTTP and call these functions.
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/types.js';
import type { PublicOrigin } from '../lib/public-origin.js';
import { createAdminApi } from './admin-api.js';
import { normalizeEmail } from './admin-users.js';
import { AuthError, authErrors } from './errors.js';
import type { AuthKeys } from './keys.js';
import { mailTemplates, type Mailer } from './mail.js';
import { createMfaApi } from './mfa.js';
import { checkPassword, hashPassword, verifyPassword } from './passwords.js';
import { createRateLimiters, type LimitName, type RateLimitOptions } from './rate-limit.js';
import {
  parseBody,
  passwordGrantBody,
  pkceGrantBody,
  recoverBody,
  refreshGrantBody,
  resendBody,
  signupBody,
  updateUserBody,
  verifyBody,
} from './schemas.js';
import {
  createSession,
  endSessions,
  findSession,
  refreshTokenReused,
  rotateRefreshToken,
  type LogoutScope,
  type SessionRow,
} from './sessions.js';
import {
  ACCESS_TOKEN_LIFETIME_S,
  asAccessClaims,
  signAccessToken,
  verifyJwt,
  type AccessClaims,
  type AmrEntry,
} from './tokens.js';
import {
  appMetadataOf,
  findUserByEmail,
  findUserById,
  listFactors,
  USER_COLUMNS,
  userJson,
  type UserRow,
} from './users.js';

export interface AuthServiceOptions {
  db: Db;
  keys: AuthKeys;
  mailer: Mailer;
  siteTitle: string;
  /** Addresses told about every signup. */
  adminEmails: string[];
  /** AUTH_REFRESH_REUSE_INTERVAL, seconds. */
  refreshReuseIntervalSeconds: number;
  rateLimits?: RateLimitOptions;
  /** Minimum seconds between two confirmation or two recovery mails to one user (GoTrue: 60). */
  emailResendIntervalSeconds?: number;
  /** Lifetime of email links and codes, seconds (GoTrue: 86400). */
  emailLinkLifetimeSeconds?: number;
  /**
   * The site's origin (lib/public-origin.ts): links in mail, redirects, the TOTP issuer and the
   * tokens' `iss` all come from it, never from the request's Host or X-Forwarded-* headers.
   */
  publicOrigin: PublicOrigin;
  /** The password hash (passwords.ts); replaceable so tests can see when it runs. */
  hashPassword?: (password: string) => Promise<string>;
  now?: () => number;
}

/** Where a request came from. */
export interface RequestContext {
  ip: string;
  userAgent?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ReturnType<typeof userJson>;
}

/** A JWT-authenticated caller: the verified claims, its user row and its live session. */
export interface Caller {
  claims: AccessClaims;
  user: UserRow;
  session: SessionRow;
}

/** An OAuth-style error body (`{error, error_description}`), used by /token for a missing refresh token. */
export class OAuthError extends AuthError {
  constructor(
    readonly oauthError: string,
    description: string,
  ) {
    super(400, oauthError, description);
  }
}

const sha224Hex = (s: string) => createHash('sha224').update(s).digest('hex');
const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
const otp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The shared password rule (passwords.ts) as GoTrue answers it: too short is 422 `weak_password`. */
export function weakPassword(password: string): AuthError | null {
  const problem = checkPassword(password);
  if (!problem) return null;
  if (problem.reason === 'length')
    return new AuthError(422, 'weak_password', problem.message, { weak_password: { reasons: ['length'] } });
  return authErrors.validation(problem.message);
}

// The names a loopback listener answers to; public-origin.ts calls it `localhost`, while a browser
// may have opened the site as 127.0.0.1 or [::1].
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function sameSite(site: URL, url: URL): boolean {
  if (url.origin === site.origin) return true;
  return (
    LOOPBACK_NAMES.has(site.hostname) &&
    LOOPBACK_NAMES.has(url.hostname) &&
    url.protocol === site.protocol &&
    url.port === site.port
  );
}

/**
 * The one place a redirect target is chosen: only this site's own origin is allowed, anything else
 * falls back to the site's root (no open redirect through a crafted link).
 */
export function safeRedirect(siteUrl: string, requested: string | undefined | null): string {
  const site = new URL(siteUrl);
  if (requested) {
    try {
      const url = new URL(requested, site);
      if (sameSite(site, url)) return url.toString();
    } catch {
      // not a URL: fall through to the site root
    }
  }
  return new URL('/', site).toString();
}

export interface Pkce {
  challenge: string;
  method: 's256' | 'plain';
}

/** Validates PKCE parameters (GoTrue's rules); null when the request uses the implicit flow. */
export function parsePkce(
  challenge: string | null | undefined,
  method: string | null | undefined,
): Pkce | null {
  if (!challenge && !method) return null;
  if (!challenge || !method)
    throw authErrors.validation('PKCE flow requires code_challenge and code_challenge_method');
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge))
    throw authErrors.validation('code challenge has to be between 43 and 128 characters of [A-Za-z0-9-._~]');
  const m = method.toLowerCase();
  if (m !== 's256' && m !== 'plain')
    throw authErrors.validation(`code challenge method "${method}" is not supported`);
  return { challenge, method: m };
}

const PKCE_PREFIX = 'pkce_';
const FLOW_STATE_LIFETIME_MS = 300_000;

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(opts: AuthServiceOptions) {
  const { db, keys, mailer } = opts;
  const now = opts.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const limiters = createRateLimiters(opts.rateLimits, now);
  const resendMs = (opts.emailResendIntervalSeconds ?? 60) * 1000;
  const linkLifetimeMs = (opts.emailLinkLifetimeSeconds ?? 86_400) * 1000;
  const reuseMs = opts.refreshReuseIntervalSeconds * 1000;
  const hash = opts.hashPassword ?? hashPassword;
  let dummyHash: Promise<string> | undefined;
  const siteUrl = () => opts.publicOrigin();
  /** `iss` of every access token: the auth API's own address. */
  const issuer = () => `${opts.publicOrigin()}/auth/v1`;

  function limit(name: LimitName, key: string) {
    if (!limiters[name].take(key)) throw authErrors.requestRateLimit();
  }

  async function tokenResponse(
    user: UserRow,
    session: SessionRow,
    refreshToken: string,
  ): Promise<TokenResponse> {
    const iat = nowSeconds();
    const access = await signAccessToken(keys, {
      userId: user.id,
      email: user.email,
      appMetadata: appMetadataOf(user),
      userMetadata: user.raw_user_meta_data,
      sessionId: session.id,
      aal: session.aal,
      amr: session.amr,
      issuer: issuer(),
      nowSeconds: iat,
    });
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_S,
      expires_at: iat + ACCESS_TOKEN_LIFETIME_S,
      refresh_token: refreshToken,
      user: userJson(user, await listFactors(db, user.id)),
    };
  }

  async function signIn(user: UserRow, method: string, ctx: RequestContext): Promise<TokenResponse> {
    const amr: AmrEntry[] = [{ method, timestamp: nowSeconds() }];
    const { session, refreshToken } = await createSession(db, user.id, {
      amr,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
    });
    const { rows } = await db.query<UserRow>(
      `update auth_users set last_sign_in_at = now() where id = $1 returning ${USER_COLUMNS}`,
      [user.id],
    );
    return tokenResponse(rows[0] ?? user, session, refreshToken);
  }

  /** Makes a fresh one-time token of a type (replacing the previous one) and returns the link parts. */
  async function newOneTimeToken(
    tx: Queryable,
    user: UserRow,
    type: 'confirmation' | 'recovery',
    pkce: Pkce | null,
  ) {
    const code = otp();
    const tokenHash = sha224Hex(user.email + code);
    await tx.query('delete from auth_one_time_tokens where user_id = $1 and token_type = $2', [
      user.id,
      type,
    ]);
    await tx.query(
      `insert into auth_one_time_tokens (user_id, token_type, token_hash, code_challenge, code_challenge_method, created_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [user.id, type, sha256Hex(tokenHash), pkce?.challenge ?? null, pkce?.method ?? null, new Date(now())],
    );
    // In the PKCE flow the link's token carries GoTrue's `pkce_` prefix.
    return { code, tokenHash: pkce ? `${PKCE_PREFIX}${tokenHash}` : tokenHash };
  }

  function verifyLink(tokenHash: string, type: string, redirectTo: string) {
    // Concatenated, not resolved: a PUBLIC_URL with a path (https://host/base) keeps it.
    const url = new URL(`${siteUrl()}/auth/v1/verify`);
    url.searchParams.set('token', tokenHash);
    url.searchParams.set('type', type);
    url.searchParams.set('redirect_to', redirectTo);
    return url.toString();
  }

  function checkResend(sentAt: Date | null) {
    if (!sentAt) return;
    const elapsed = now() - new Date(sentAt).getTime();
    if (elapsed < resendMs) throw authErrors.emailRateLimit(Math.ceil((resendMs - elapsed) / 1000));
  }

  async function sendConfirmation(user: UserRow, redirectTo: string, pkce: Pkce | null = null) {
    checkResend(user.confirmation_sent_at);
    const { code, tokenHash } = await db.transaction(async (tx) => {
      const made = await newOneTimeToken(tx, user, 'confirmation', pkce);
      await tx.query('update auth_users set confirmation_sent_at = $2 where id = $1', [
        user.id,
        new Date(now()),
      ]);
      return made;
    });
    const link = verifyLink(tokenHash, 'signup', redirectTo);
    await mailer.send({
      userId: user.id,
      kind: 'confirmation',
      to: user.email,
      ...mailTemplates.confirmation(opts.siteTitle, link, code),
    });
  }

  async function notifyAdmins(user: UserRow) {
    for (const admin of opts.adminEmails) {
      await mailer.send({
        userId: user.id,
        kind: 'admin_signup_notification',
        to: admin,
        ...mailTemplates.adminSignup(opts.siteTitle, user.email),
      });
    }
  }

  /** Verifies a Bearer access token: signature, expiry, live session, existing unbanned user. */
  async function authenticate(token: string | null): Promise<Caller> {
    if (!token) throw authErrors.noAuthorization();
    const claims = asAccessClaims(await verifyJwt(keys, token, nowSeconds()));
    if (claims.iss !== issuer()) throw authErrors.badJwt('invalid claim: iss is not this server');
    const [session, user] = await Promise.all([
      findSession(db, claims.session_id),
      findUserById(db, claims.sub),
    ]);
    if (!user) throw authErrors.userNotFound(403);
    if (!session || session.user_id !== user.id) throw authErrors.sessionNotFound();
    if (user.banned_until && new Date(user.banned_until).getTime() > now())
      throw new AuthError(403, 'user_banned', 'User is banned');
    return { claims, user, session };
  }

  return {
    keys,
    publicOrigin: opts.publicOrigin,
    authenticate,
    tokenResponse,
    admin: createAdminApi({ db, keys }),
    mfa: createMfaApi({ db, limiter: limiters.mfa, now, tokenResponse }),
    /** GET /settings */
    settings() {
      const off = Object.fromEntries(
        [
          'anonymous_users',
          'apple',
          'azure',
          'bitbucket',
          'discord',
          'facebook',
          'figma',
          'fly',
          'github',
          'gitlab',
          'google',
          'keycloak',
          'kakao',
          'linkedin',
          'linkedin_oidc',
          'notion',
          'phone',
          'saml',
          'slack',
          'slack_oidc',
          'spotify',
          'twitch',
          'twitter',
          'workos',
          'zoom',
        ].map((k) => [k, false]),
      );
      return {
        external: { ...off, email: true },
        disable_signup: false,
        mailer_autoconfirm: false,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
        saml_private_key_next_configured: false,
        passkeys_enabled: false,
      };
    },

    /** POST /signup (confirmation required). */
    async signup(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(signupBody, body);
      limit('signup', ctx.ip);
      // supabase-js signInAnonymously() posts only {data}: anonymous users are off, as GoTrue's default.
      if (!input.email && !input.phone && !input.password)
        throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      if (input.phone && !input.email)
        throw new AuthError(422, 'phone_provider_disabled', 'Phone signups are disabled');
      if (!input.password) throw authErrors.validation('Signup requires a valid password');
      const weak = weakPassword(input.password);
      if (weak) throw weak;
      if (!input.email) throw authErrors.validation('To signup, please provide your email');
      const pkce = parsePkce(input.code_challenge, input.code_challenge_method);
      const email = normalizeEmail(input.email);
      const redirect = safeRedirect(siteUrl(), redirectTo);
      // Hashed whether or not the address is taken: a known address must not answer faster.
      const passwordHash = await hash(input.password);

      const existing = await findUserByEmail(db, email);
      if (existing?.email_confirmed_at) {
        // No enumeration: a confirmed address gets a look-alike user with no identities and no mail.
        const stamp = new Date(now()).toISOString();
        return {
          ...userJson({ ...existing, id: randomUUID() }),
          role: '',
          identities: [],
          email_confirmed_at: undefined,
          confirmed_at: undefined,
          last_sign_in_at: undefined,
          app_metadata: { provider: 'email', providers: ['email'] },
          user_metadata: input.data ?? {},
          factors: undefined,
          created_at: stamp,
          updated_at: stamp,
          confirmation_sent_at: stamp,
        };
      }
      let user = existing;
      if (!user) {
        try {
          const { rows } = await db.query<UserRow>(
            `insert into auth_users (email, encrypted_password, raw_user_meta_data) values ($1, $2, $3::jsonb)
             returning ${USER_COLUMNS}`,
            [email, passwordHash, JSON.stringify(input.data ?? {})],
          );
          user = rows[0] as UserRow;
        } catch (error) {
          if ((error as { code?: string }).code !== '23505') throw error;
          user = await findUserByEmail(db, email);
          if (!user) throw error;
        }
        await sendConfirmation(user, redirect, pkce);
        await notifyAdmins(user);
      } else {
        await sendConfirmation(user, redirect, pkce);
      }
      const fresh = (await findUserById(db, user.id)) ?? user;
      return userJson(fresh);
    },

    /** POST /token?grant_type=password */
    async passwordGrant(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(passwordGrantBody, body);
      limit('token', ctx.ip);
      if (input.email && input.phone)
        throw authErrors.validation('Only an email address or phone number should be provided');
      if (input.phone) throw authErrors.invalidCredentials();
      if (!input.email) throw authErrors.validation('An email address or phone number is required');
      if (!input.password) throw authErrors.validation('A password is required');
      // Per address, only failed attempts count: guessing one account's password is slowed down,
      // while its owner signing in on many devices is not.
      const emailKey = input.email.trim().toLowerCase();
      if (!limiters.tokenPerEmail.check(emailKey)) throw authErrors.requestRateLimit();
      const failed = () => {
        limiters.tokenPerEmail.take(emailKey);
        return authErrors.invalidCredentials();
      };
      const user = await findUserByEmail(db, input.email.trim());
      if (!user?.encrypted_password) {
        // Same work as a real check, so timing does not tell whether the address exists.
        await verifyPassword(await (dummyHash ??= hash(randomBytes(16).toString('hex'))), input.password);
        throw failed();
      }
      if (!(await verifyPassword(user.encrypted_password, input.password))) throw failed();
      if (user.banned_until && new Date(user.banned_until).getTime() > now())
        throw new AuthError(400, 'user_banned', 'User is banned');
      if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
      return signIn(user, 'password', ctx);
    },

    /** POST /token?grant_type=refresh_token */
    async refreshGrant(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(refreshGrantBody, body);
      limit('token', ctx.ip);
      if (!input.refresh_token) throw new OAuthError('invalid_request', 'refresh_token required');
      const presented = input.refresh_token;
      const rotation = await db.transaction((tx) =>
        rotateRefreshToken(tx, presented, reuseMs, new Date(now())),
      );
      if ('revokeSession' in rotation) {
        await db.query('delete from auth_sessions where id = $1', [rotation.revokeSession]);
        throw refreshTokenReused();
      }
      const { session, refreshToken } = rotation;
      const user = await findUserById(db, session.user_id);
      if (!user) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: Session Not Found');
      if (user.banned_until && new Date(user.banned_until).getTime() > now())
        throw new AuthError(400, 'user_banned', 'User is banned');
      return tokenResponse(user, session, refreshToken);
    },

    /** POST /logout?scope= */
    async logout(token: string | null, scope: string | undefined) {
      const s = (scope || 'global') as LogoutScope;
      if (!['global', 'local', 'others'].includes(s))
        throw authErrors.validation(`Unsupported logout scope "${scope}"`);
      const caller = await authenticate(token);
      await endSessions(db, caller.user.id, caller.session.id, s);
    },

    /** POST /recover: 200 {} whether or not the address exists. */
    async recover(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(recoverBody, body);
      limit('recover', ctx.ip);
      if (!input.email) throw authErrors.validation('Password recovery requires an email');
      const email = normalizeEmail(input.email);
      const pkce = parsePkce(input.code_challenge, input.code_challenge_method);
      const user = await findUserByEmail(db, email);
      if (!user) return {};
      checkResend(user.recovery_sent_at);
      const { code, tokenHash } = await db.transaction(async (tx) => {
        const made = await newOneTimeToken(tx, user, 'recovery', pkce);
        await tx.query('update auth_users set recovery_sent_at = $2 where id = $1', [
          user.id,
          new Date(now()),
        ]);
        return made;
      });
      const link = verifyLink(tokenHash, 'recovery', safeRedirect(siteUrl(), redirectTo));
      await mailer.send({
        userId: user.id,
        kind: 'recovery',
        to: user.email,
        ...mailTemplates.recovery(opts.siteTitle, link, code),
      });
      return {};
    },

    /**
     * POST /resend (type signup): a new confirmation mail for an unconfirmed address. Unknown and
     * already confirmed addresses get the same `{}` and no mail (no enumeration).
     */
    async resend(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(resendBody, body);
      limit('signup', ctx.ip);
      if (input.type !== 'signup')
        throw authErrors.validation(`Resend type "${input.type}" is not supported by this server`);
      if (!input.email) throw authErrors.validation('An email address is required');
      const user = await findUserByEmail(db, normalizeEmail(input.email));
      if (user && !user.email_confirmed_at) await sendConfirmation(user, safeRedirect(siteUrl(), redirectTo));
      return {};
    },

    /** GET /user */
    async getUser(token: string | null) {
      const { user } = await authenticate(token);
      return userJson(user, await listFactors(db, user.id));
    },

    /** PUT /user: password (after recovery) and user_metadata. */
    async updateUser(token: string | null, body: unknown) {
      const caller = await authenticate(token);
      const input = parseBody(updateUserBody, body);
      if (input.app_metadata !== undefined) throw authErrors.notAdmin();
      if (input.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      if (input.email !== undefined && normalizeEmail(input.email) !== caller.user.email)
        throw authErrors.validation('Changing the email address is not supported by this server');
      let user = caller.user;
      if (input.password !== undefined) {
        const factors = await listFactors(db, user.id);
        if (factors.some((f) => f.status === 'verified') && caller.session.aal !== 'aal2')
          throw new AuthError(
            401,
            'insufficient_aal',
            'AAL2 session is required to update email or password when MFA is enabled.',
          );
        const weak = weakPassword(input.password);
        if (weak) throw weak;
        if (user.encrypted_password && (await verifyPassword(user.encrypted_password, input.password)))
          throw new AuthError(
            422,
            'same_password',
            'New password should be different from the old password.',
          );
        const newHash = await hash(input.password);
        user = await db.transaction(async (tx) => {
          const { rows } = await tx.query<UserRow>(
            `update auth_users set encrypted_password = $2, updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
            [user.id, newHash],
          );
          // Other sessions end and pending email links die with the old password.
          await tx.query('delete from auth_sessions where user_id = $1 and id <> $2', [
            user.id,
            caller.session.id,
          ]);
          await tx.query('delete from auth_one_time_tokens where user_id = $1', [user.id]);
          return rows[0] as UserRow;
        });
      }
      if (input.data) {
        const { rows } = await db.query<UserRow>(
          `update auth_users set raw_user_meta_data = raw_user_meta_data || $2::jsonb, updated_at = now()
           where id = $1 returning ${USER_COLUMNS}`,
          [user.id, JSON.stringify(input.data)],
        );
        user = rows[0] as UserRow;
      }
      return userJson(user, await listFactors(db, user.id));
    },

    /**
     * Checks an email link's token (single use) and returns its user. Confirmation links confirm the
     * address; recovery links also confirm it (the mail reached its owner). Throws 403 `otp_expired`.
     */
    async consumeEmailToken(
      presented: string,
      type: string,
      ctx: RequestContext,
      email?: string,
    ): Promise<{ user: UserRow; pkce: Pkce | null }> {
      limit('verify', ctx.ip);
      const tokenType =
        type === 'recovery' ? 'recovery' : type === 'signup' || type === 'email' ? 'confirmation' : null;
      if (!tokenType) throw authErrors.validation(`Verify type "${type}" is not supported by this server`);
      const tokenHash = presented.startsWith(PKCE_PREFIX) ? presented.slice(PKCE_PREFIX.length) : presented;
      const invalid = () => authErrors.otpExpired(email ? 'Token has expired or is invalid' : undefined);
      const result = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{
          user_id: string;
          created_at: Date;
          code_challenge: string | null;
          code_challenge_method: 's256' | 'plain' | null;
        }>(
          `delete from auth_one_time_tokens where token_hash = $1 and token_type = $2
           returning user_id, created_at, code_challenge, code_challenge_method`,
          [sha256Hex(tokenHash), tokenType],
        );
        const row = rows[0];
        if (!row || now() - new Date(row.created_at).getTime() > linkLifetimeMs) throw invalid();
        const updated = await tx.query<UserRow>(
          `update auth_users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
           where id = $1 returning ${USER_COLUMNS}`,
          [row.user_id],
        );
        const pkce =
          row.code_challenge && row.code_challenge_method
            ? { challenge: row.code_challenge, method: row.code_challenge_method }
            : null;
        return { user: updated.rows[0], pkce };
      });
      if (!result.user) throw invalid();
      if (email && result.user.email !== email.trim().toLowerCase()) throw invalid();
      return { user: result.user, pkce: result.pkce };
    },

    /** POST /token?grant_type=pkce: exchanges a link's auth code and the client's verifier for a session. */
    async pkceGrant(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(pkceGrantBody, body);
      limit('token', ctx.ip);
      if (!input.auth_code || !input.code_verifier)
        throw authErrors.validation('invalid request: both auth code and code verifier should be non-empty');
      const { rows } = await db.query<{
        user_id: string;
        code_challenge: string;
        code_challenge_method: 's256' | 'plain';
        authentication_method: string;
        created_at: Date;
      }>('delete from auth_flow_state where auth_code = $1 returning *', [input.auth_code]);
      const flow = rows[0];
      if (!flow)
        throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
      if (now() - new Date(flow.created_at).getTime() > FLOW_STATE_LIFETIME_MS)
        throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
      const expected =
        flow.code_challenge_method === 's256'
          ? createHash('sha256').update(input.code_verifier).digest('base64url')
          : input.code_verifier;
      if (expected !== flow.code_challenge)
        throw new AuthError(
          400,
          'bad_code_verifier',
          'code challenge does not match previously saved code verifier',
        );
      const user = await findUserById(db, flow.user_id);
      if (!user) throw authErrors.userNotFound();
      return signIn(user, flow.authentication_method === 'recovery' ? 'recovery' : 'otp', ctx);
    },

    /** POST /verify: {token_hash, type} or {email, token, type}. */
    async verifyOtp(body: unknown, ctx: RequestContext): Promise<TokenResponse> {
      const input = parseBody(verifyBody, body);
      if (input.token_hash) {
        if (input.email || input.phone)
          throw authErrors.validation('Only the token_hash and type should be provided');
        const { user } = await this.consumeEmailToken(input.token_hash, input.type, ctx);
        return signIn(user, input.type === 'recovery' ? 'recovery' : 'otp', ctx);
      }
      if (input.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      if (!input.email || !input.token)
        throw authErrors.validation('Verify requires either a token_hash or an email and a token');
      const email = normalizeEmail(input.email);
      const { user } = await this.consumeEmailToken(
        sha224Hex(email + input.token.trim()),
        input.type,
        ctx,
        email,
      );
      return signIn(user, input.type === 'recovery' ? 'recovery' : 'otp', ctx);
    },

    /** GET /verify: a redirect URL carrying the session (or the error) in its fragment. */
    async verifyRedirect(
      query: { token?: string; type?: string; redirect_to?: string },
      ctx: RequestContext,
    ): Promise<string> {
      const target = safeRedirect(siteUrl(), query.redirect_to);
      const tokenIsPkce = query.token?.startsWith(PKCE_PREFIX) ?? false;
      // Form-encoded, keys sorted, `sb` an empty marker: GoTrue's exact layout.
      const fragment = (params: Record<string, string>) => {
        const all: Record<string, string> = { ...params, sb: '' };
        const sorted = Object.keys(all)
          .sort()
          .map((k) => [k, all[k] as string]);
        const query = new URLSearchParams(sorted).toString();
        // PKCE clients read errors from the query string: GoTrue copies them there too.
        if (query.includes('error=') && tokenIsPkce) {
          const url = new URL(target.split('#')[0] as string);
          for (const [k, v] of sorted) if (k !== 'sb') url.searchParams.set(k as string, v as string);
          return `${url.toString()}#${query}`;
        }
        return `${target.split('#')[0]}#${query}`;
      };
      try {
        if (!query.token || !query.type) throw authErrors.otpExpired();
        const { user, pkce } = await this.consumeEmailToken(query.token, query.type, ctx);
        if (pkce) {
          // PKCE: no tokens in the URL, only a single-use code the client exchanges with its verifier.
          const authCode = randomUUID();
          await db.query(
            `insert into auth_flow_state (user_id, auth_code, code_challenge, code_challenge_method, authentication_method, created_at)
             values ($1, $2, $3, $4, $5, $6)`,
            [
              user.id,
              authCode,
              pkce.challenge,
              pkce.method,
              query.type === 'recovery' ? 'recovery' : 'email/signup',
              new Date(now()),
            ],
          );
          const url = new URL(target.split('#')[0] as string);
          url.searchParams.set('code', authCode);
          return url.toString();
        }
        const t = await signIn(user, query.type === 'recovery' ? 'recovery' : 'otp', ctx);
        const p: Record<string, string> = {
          access_token: t.access_token,
          expires_at: String(t.expires_at),
          expires_in: String(t.expires_in),
          refresh_token: t.refresh_token,
          token_type: 'bearer',
          type: query.type,
        };
        return fragment(p);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        const oauth =
          error.status === 400
            ? 'invalid_request'
            : error.status === 401
              ? 'unauthorized_client'
              : error.status === 403
                ? 'access_denied'
                : 'server_error';
        return fragment({ error: oauth, error_code: error.code, error_description: error.message });
      }
    },
  };
}
