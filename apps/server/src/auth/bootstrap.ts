import { randomBytes } from 'node:crypto';
import type { Db } from '../db/types.js';
import { createUser } from './admin-users.js';

export interface BootstrapResult {
  /** Addresses created now (empty when the database already had users). */
  created: string[];
  /** Set only when a password was generated: the operator must see it once. */
  generatedPassword?: string;
}

/**
 * On an empty database, creates each address of ADMIN_EMAILS confirmed, with app_metadata.role
 * 'admin', and the password ADMIN_PASSWORD or a generated one.
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
