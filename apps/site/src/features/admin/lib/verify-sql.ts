/** Supabase's users table: where the SQL editor of a hosted project finds the accounts. */
export const HOSTED_USERS_TABLE = 'auth.users';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TABLE = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/i;

/**
 * The SQL of the SQL Query Generator: an UPDATE that sets the confirmation time of the
 * selected users, only where it is not set yet, so running it twice changes nothing the second
 * time and a verified user keeps its original date. Ids are checked to be UUIDs before they are
 * quoted, so the text can never carry anything but ids.
 *
 * @example
 * buildVerifySql(['7b2c…']) // UPDATE auth.users SET email_confirmed_at = NOW() WHERE id = '7b2c…' AND …
 */
export function buildVerifySql(ids: readonly string[], table: string = HOSTED_USERS_TABLE): string {
  if (!TABLE.test(table)) throw new Error(`Not a table name: ${table}`);
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length === 0) throw new Error('Select at least one user to generate SQL.');
  const bad = unique.find((id) => !UUID.test(id));
  if (bad !== undefined) throw new Error(`Not a user id: ${bad}`);
  const which =
    unique.length === 1
      ? `id = '${unique[0]}'`
      : `id IN (\n${unique.map((id) => `  '${id}'`).join(',\n')}\n)`;
  const count = unique.length === 1 ? '1 selected user' : `${unique.length} selected users`;
  return [
    `-- Confirm the email of ${count} (only where not yet confirmed)`,
    `UPDATE ${table}`,
    'SET email_confirmed_at = NOW()',
    `WHERE ${which}`,
    'AND email_confirmed_at IS NULL;',
  ].join('\n');
}
