// The users export (GET /api/admin/users.csv): RFC 4180 lines, CRLF-terminated, cells written by
// the one csvCell (formulas defused).
import { csvRow } from '@engage/http-contract/csv';
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

export const csvLine = (cells: readonly (string | null)[]) => `${csvRow(cells)}\r\n`;

export const userCsvLine = (u: AdminUser) =>
  csvLine([u.id, u.email, u.created_at, u.email_confirmed_at, u.last_sign_in_at, u.role, u.banned_until]);
