// The embedded auth service: GoTrue's flows over the Db interface, one module
// per endpoint family over the shared core (core.ts), link mail (link-mail.ts) and tokens.
// Framework-free: the Hono routes in auth/http/routes.ts parse HTTP and call these functions.
//
// Module graph (no cycles; an import-cycle test guards it): types, errors, schemas, tokens, users,
// sessions, redirects, link-tokens → core → link-mail, anonymous → signup, grants, links, verify, user-api,
// mfa (mfa-webauthn, webauthn), passkeys, oauth-clients → admin-api → service.
import { createAdminApi } from './admin-api.js';
import { createAnonymousApi } from './anonymous.js';
import { createAuthCore } from './core.js';
import { AuthError } from './errors.js';
import { createGrantsApi } from './grants.js';
import { createLinkMail } from './link-mail.js';
import { createLinksApi } from './links.js';
import { createMfaApi } from './mfa.js';
import { createOAuthClientsApi } from './oauth-clients.js';
import { createAdminPasskeysApi, createPasskeysApi } from './passkeys.js';
import { perAddress } from './rate-limit.js';
import { createRecoveryCodeApi } from './recovery-codes.js';
import { createSignupApi } from './signup.js';
import type { AuthServiceOptions } from './types.js';
import { createUserApi } from './user-api.js';
import { hasVerifiedFactor } from './users.js';
import { createVerifyApi } from './verify.js';
import { relyingParty } from './webauthn.js';

export { weakPassword } from './passwords.js';
export { parsePkce, safeRedirect, type Pkce } from './redirects.js';
export {
  OAuthError,
  type AuthServiceOptions,
  type Caller,
  type RequestContext,
  type TokenResponse,
} from './types.js';

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(opts: AuthServiceOptions) {
  const core = createAuthCore(opts);
  const mail = createLinkMail(core);
  const links = createLinksApi(core, mail);
  const verify = createVerifyApi(core);
  const anonymous = createAnonymousApi(core);
  return {
    keys: core.keys,
    publicOrigin: opts.publicOrigin,
    authenticate: core.authenticate,
    hasVerifiedFactor: (userId: string) => hasVerifiedFactor(core.db, userId),
    tokenResponse: core.tokenResponse,
    admin: createAdminApi(core, links),
    /** /admin/oauth/clients (service role; the routes authorize). */
    oauthClients: createOAuthClientsApi(core.db),
    /** The caller of a route GoTrue closes to anonymous users (403 `no_authorization`). */
    async authenticateNamed(token: string | null) {
      const caller = await core.authenticate(token);
      if (caller.user.is_anonymous)
        throw new AuthError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions');
      return caller;
    },
    adminPasskeys: createAdminPasskeysApi(core),
    passkeys: createPasskeysApi(core),
    mfa: createMfaApi({
      db: core.db,
      limiter: perAddress(core.limiters.mfa),
      now: core.now,
      rp: () => relyingParty(core.siteUrl(), opts.siteTitle, opts.webauthnOrigins),
      maxPendingChallenges: opts.maxPendingChallenges,
      tokenResponse: core.tokenResponse,
    }),
    recoveryCodes: createRecoveryCodeApi({
      db: core.db,
      now: core.now,
      tokenSecret: core.tokenSecret,
      limiter: perAddress(core.limiters.mfa),
      tokenResponse: core.tokenResponse,
    }),
    ...createSignupApi(core, mail, anonymous),
    pruneAnonymousUsers: anonymous.pruneAnonymousUsers,
    ...createGrantsApi(core),
    recover: links.recover,
    resend: links.resend,
    otp: links.otp,
    ...createUserApi(core, mail),
    consumeEmailToken: verify.consume,
    verifyOtp: verify.verifyOtp,
    verifyRedirect: verify.verifyRedirect,
  };
}
