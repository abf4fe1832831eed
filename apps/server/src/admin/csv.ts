// The users export (GET /api/admin/users.csv): RFC 4180 lines, CRLF-terminated, with the cells a
// spreadsheet would run as a formula defused.
import type { AdminUser } from './types.js';

export const USERS_CSV_HEADER = [
  'id',
  'email',
  'created_at',
  'email_confirmed_at',
  'last_sign_in_at',
  'role',
  'banned_until',
] as const;

/**
 * One cell: a value starting with = + - @ TAB or CR gets a leading apostrophe (OWASP's CSV
 * injection advice: a spreadsheet would otherwise evaluate `=HYPERLINK(...)` from an address a
 * visitor chose), then quotes where RFC 4180 needs them, inner quotes doubled.
 */
export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: readonly (string | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export const userCsvLine = (u: AdminUser) =>
  csvLine([u.id, u.email, u.created_at, u.email_confirmed_at, u.last_sign_in_at, u.role, u.banned_until]);
