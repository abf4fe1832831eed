// POST /signup and GET /settings.
import { randomUUID } from 'node:crypto';
import type { createAnonymousApi } from './anonymous.js';
import type { AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import type { LinkMail } from './link-mail.js';
import { verifyPassword, weakPassword } from './passwords.js';
import { parsePkce } from './redirects.js';
import { parseBody, signupBody } from './schemas.js';
import type { RequestContext } from './types.js';
import { normalizeEmail } from './user-store.js';
import { findUserByEmail, findUserById, USER_COLUMNS, userJson, type UserRow } from './users.js';

/** Providers and features this server does not offer; /settings lists them as off. */
const OFF = [
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
  'web3_ethereum',
  'web3_solana',
  'workos',
  'zoom',
];

export const userAlreadyExists = () => new AuthError(422, 'user_already_exists', 'User already registered');

export function createSignupApi(
  core: AuthCore,
  mail: LinkMail,
  anonymous: ReturnType<typeof createAnonymousApi>,
) {
  const { db } = core;

  /** Marks a user confirmed now (autoconfirm) and returns the fresh row. */
  async function confirm(user: UserRow): Promise<UserRow> {
    const { rows } = await db.query<UserRow>(
      `update auth_users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
       where id = $1 returning ${USER_COLUMNS}`,
      [user.id],
    );
    return rows[0] ?? user;
  }

  return {
    /** GET /settings */
    settings() {
      return {
        external: {
          ...Object.fromEntries(OFF.map((k) => [k, false])),
          email: true,
          anonymous_users: Boolean(core.opts.anonymous),
        },
        disable_signup: false,
        mailer_autoconfirm: core.autoconfirm,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
        saml_private_key_next_configured: false,
        passkeys_enabled: true,
      };
    },

    /** POST /signup: a confirmation mail, or a session at once with AUTH_AUTOCONFIRM. */
    async signup(body: unknown, redirectTo: string | undefined, ctx: RequestContext) {
      const input = parseBody(signupBody, body);
      // Neither an email, a phone nor a password: GoTrue's anonymous sign-in (supabase-js
      // signInAnonymously() posts only {data}), off unless AUTH_ANONYMOUS, and limited on its own.
      // A password without an address stays a validation error: it is a sign-up missing its email,
      // never silently an anonymous user.
      if (!input.email?.trim() && !input.phone?.trim() && !input.password)
        return anonymous.signInAnonymously(input.data, ctx);
      await core.limit('signup', ctx.ip);
      if (input.phone && !input.email)
        throw new AuthError(422, 'phone_provider_disabled', 'Phone signups are disabled');
      // GoTrue's order: a password at all, then the address (present, well formed), then the
      // password's strength; a malformed address with a weak password is told about the address.
      if (!input.password) throw authErrors.validation('Signup requires a valid password');
      if (!input.email) throw authErrors.validation('To signup, please provide your email');
      const email = normalizeEmail(input.email);
      const weak = weakPassword(input.password);
      if (weak) throw weak;
      const pkce = parsePkce(input.code_challenge, input.code_challenge_method);
      const redirect = core.redirect(redirectTo);
      // Hashed whether or not the address is taken: a known address must not answer faster.
      const passwordHash = await core.hash(input.password);

      const existing = await findUserByEmail(db, email);
      if (existing && core.autoconfirm) {
        // Autoconfirm reveals a taken address, as GoTrue does; an unconfirmed account is signed in
        // only by whoever knows its password.
        if (existing.email_confirmed_at || !existing.encrypted_password) throw userAlreadyExists();
        if (!(await verifyPassword(existing.encrypted_password, input.password))) throw userAlreadyExists();
        return core.signIn(await confirm(existing), 'password', ctx);
      }
      if (existing?.email_confirmed_at) {
        // No enumeration: a confirmed address gets a look-alike user with no identities, and its owner
        // a mail saying what happened (sign in, or reset the password) instead of a confirmation.
        await mail.sendExistingAccount(existing, redirect);
        const stamp = new Date(core.now()).toISOString();
        return {
          ...userJson({ ...existing, id: randomUUID() }),
          role: '',
          identities: [],
          email_confirmed_at: undefined,
          confirmed_at: undefined,
          last_sign_in_at: undefined,
          banned_until: undefined,
          new_email: undefined,
          email_change_sent_at: undefined,
          invited_at: undefined,
          recovery_sent_at: undefined,
          app_metadata: { provider: 'email', providers: ['email'] },
          user_metadata: input.data ?? {},
          factors: undefined,
          created_at: stamp,
          updated_at: stamp,
          confirmation_sent_at: stamp,
        };
      }
      let user = existing;
      let created = false;
      if (!user) {
        try {
          const { rows } = await db.query<UserRow>(
            `insert into auth_users (email, encrypted_password, raw_user_meta_data) values ($1, $2, $3::jsonb)
             returning ${USER_COLUMNS}`,
            [email, passwordHash, JSON.stringify(input.data ?? {})],
          );
          user = rows[0] as UserRow;
          created = true;
        } catch (error) {
          if ((error as { code?: string }).code !== '23505') throw error;
          user = await findUserByEmail(db, email);
          if (!user) throw error;
        }
      }
      if (core.autoconfirm) {
        const session = await core.signIn(await confirm(user), 'password', ctx);
        if (created) await mail.notifyAdmins(user);
        return session;
      }
      // A later sign-up of a pending address replaces its password and metadata with its new mail
      // (the earlier link stops working): GoTrue keeps the first sign-up's password, which lets
      // whoever registers an address first own it once its owner confirms (docs/security.md).
      const pending = created ? undefined : { passwordHash, metadata: input.data ?? {} };
      await mail.sendConfirmation(user, redirect, pkce, pending);
      if (created) await mail.notifyAdmins(user);
      const fresh = (await findUserById(db, user.id)) ?? user;
      return userJson(fresh);
    },
  };
}
