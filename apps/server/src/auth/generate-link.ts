// POST /admin/generate_link (GoTrue's admin generate_link): the link of a mail, not sent, with the
// user as a flat object; an unknown address is signed up for a sign-up, invite or magic link.
import type { AuthCore } from './core.js';
import { AuthError, authErrors } from './errors.js';
import { verificationType, type LinkKind, type LinkMail } from './link-mail.js';
import { weakPassword } from './passwords.js';
import { generateLinkBody, linkTypes, parseBody } from './schemas.js';
import { createUser, emailExists, normalizeEmail } from './user-store.js';
import { findUserByEmail, findUserById, userJson } from './users.js';

const userNotFound = () => new AuthError(404, 'user_not_found', 'User with this email not found');

export async function generateLink(core: AuthCore, mail: LinkMail, body: unknown, redirectTo?: string) {
  const { db } = core;
  const input = parseBody(generateLinkBody, body);
  if (!(linkTypes as readonly string[]).includes(input.type))
    throw authErrors.validation(`Invalid generate_link type "${input.type}"`);
  if (!input.email) throw authErrors.validation('An email address is required');
  const email = normalizeEmail(input.email);
  let kind = input.type as LinkKind;
  let user = await findUserByEmail(db, email);
  if (!user && kind === 'magiclink') kind = 'signup'; // GoTrue signs an unknown address up
  if (kind === 'signup' || kind === 'invite') {
    if (user?.email_confirmed_at) throw emailExists();
    let password = input.password;
    if (kind === 'signup' && !user) {
      if (!password && input.type === 'signup')
        throw authErrors.validation('Signup requires a valid password');
      const weak = password ? weakPassword(password) : null;
      if (weak) throw weak;
    } else password = undefined;
    user ??= await createUser(db, {
      email,
      password,
      userMetadata: input.data ?? {},
      hashPassword: core.hash,
    });
  }
  if (!user) throw userNotFound();
  if (kind === 'email_change_current' || kind === 'email_change_new') {
    if (!input.new_email) throw authErrors.validation('The new email address is required');
    const newEmail = normalizeEmail(input.new_email);
    if (await findUserByEmail(db, newEmail)) throw emailExists();
    await db.query('update auth_users set email_change = $2, email_change_confirm_status = 0 where id = $1', [
      user.id,
      newEmail,
    ]);
    user = { ...user, email_change: newEmail };
  }
  const redirect = core.redirect(redirectTo ?? input.redirect_to);
  const link = await mail.prepareLink(user, kind, redirect);
  return {
    ...userJson((await findUserById(db, user.id)) ?? user),
    action_link: link.link,
    email_otp: link.code,
    hashed_token: link.hashedToken,
    redirect_to: redirect,
    verification_type: verificationType(kind),
  };
}
