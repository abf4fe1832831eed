import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Migration } from '../types.js';

/** Reads `NNNN_name.sql` files of a folder in order, ids prefixed with the module's name. */
export function loadSqlMigrations(dir: string, module: string): Migration[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({
      id: `${module}/${f.replace(/\.sql$/, '')}`,
      sql: readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/** The server's own migrations (core tables). Feature modules add theirs in app start-up. */
export const coreMigrations = (): Migration[] =>
  loadSqlMigrations(path.join(import.meta.dirname, 'core'), 'core');
