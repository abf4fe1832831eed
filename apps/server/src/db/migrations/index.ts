import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Migration } from '@engage/db';

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

const here = import.meta.dirname;

/** The server's own migrations (core tables). */
export const coreMigrations = (): Migration[] => loadSqlMigrations(path.join(here, 'core'), 'core');

/**
 * Every migration of the server's modules, in dependency order: core, then auth (users, sessions,
 * mail), then admin (audit log, which refers to users). Each module is one folder here.
 */
export const serverMigrations = (): Migration[] =>
  ['core', 'auth', 'admin'].flatMap((module) =>
    existsSync(path.join(here, module)) ? loadSqlMigrations(path.join(here, module), module) : [],
  );
