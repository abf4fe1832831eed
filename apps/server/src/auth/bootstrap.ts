import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '@engage/db';
import { createUser } from './user-store.js';

export interface BootstrapResult {
  /** Addresses created now (empty when the database already had users). */
  created: string[];
  /** Set only when a password was generated: the operator must see it once. */
  generatedPassword?: string;
}

/**
 * On an empty database, creates each address of ADMIN_EMAILS confirmed, with app_metadata.role
 * 'admin', and the password ADMIN_PASSWORD or a generated one. (An address also in OPERATOR_EMAILS
 * is created an admin: admin wins.)
 */
export async function bootstrapAdmins(db: Db, emails: string[], password?: string): Promise<BootstrapResult> {
  if (emails.length === 0) return { created: [] };
  const generated = password ? undefined : randomBytes(12).toString('base64url');
  return db.transaction(async (tx) => {
    // Serialises concurrent first starts of several servers on one PostgreSQL.
    await tx.query('select pg_advisory_xact_lock($1)', [872_114_302]);
    const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from auth_users');
    if ((rows[0]?.n ?? 0) > 0) return { created: [] };
    for (const email of emails) {
      await createUser(tx, {
        email,
        password: password ?? generated,
        emailConfirm: true,
        appMetadata: { role: 'admin' },
      });
    }
    return { created: emails, generatedPassword: generated };
  });
}

/**
 * OPERATOR_EMAILS: gives app_metadata.role 'operator' to the existing accounts of these addresses,
 * on every start. No account is created (there is no password to give it): an operator signs up
 * or an admin creates the account, and the role comes at the next start, or at once from the
 * dashboard. Only confirmed addresses qualify, so whoever signs up first with an operator's address
 * but cannot read its mail gets nothing: a later sign-up replaces a pending password, and an
 * invitation, sign-in link or recovery link that confirms the address drops it (docs/security.md,
 * "Sign-up of an unconfirmed address"), so the password of a confirmed account is the confirmer's. An admin is never demoted, and an address that is also in
 * ADMIN_EMAILS is left to it (admin wins). Returns the addresses given the role now.
 */
export async function bootstrapOperators(
  db: Queryable,
  operatorEmails: readonly string[],
  adminEmails: readonly string[] = [],
): Promise<string[]> {
  const admins = new Set(adminEmails.map((e) => e.toLowerCase()));
  const emails = operatorEmails.map((e) => e.toLowerCase()).filter((e) => !admins.has(e));
  if (emails.length === 0) return [];
  const { rows } = await db.query<{ email: string }>(
    `update auth_users
        set raw_app_meta_data = raw_app_meta_data || '{"role":"operator"}'::jsonb, updated_at = now()
      where lower(email) = any($1::text[])
        and email_confirmed_at is not null
        and coalesce(raw_app_meta_data->>'role', '') not in ('admin', 'operator')
      returning email`,
    [emails],
  );
  return rows.map((r) => r.email);
}
