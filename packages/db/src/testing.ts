import { randomBytes } from 'node:crypto';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import type { Db, Migration } from './types.js';

export interface TestDbTarget {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, empty, migrated database; `close()` drops everything it made. */
  open(migrations?: readonly Migration[], options?: { statementTimeoutMs?: number }): Promise<Db>;
}

/**
 * The databases a storage suite runs on: in-memory PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each PostgreSQL database is a schema of its own, so
 * parallel test files never see each other's rows.
 *
 * @example
 * for (const target of testDbTargets()) describe(`users on ${target.name}`, () => { ... });
 */
export function testDbTargets(): TestDbTarget[] {
  const targets: TestDbTarget[] = [
    {
      name: 'pglite',
      async open(migrations = []) {
        const db = await openPglite();
        await migrate(db, migrations);
        return db;
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    targets.push({
      name: 'postgres',
      async open(migrations = [], options = {}) {
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const admin = await openPostgres(url, { max: 1 });
        await admin.exec(`create schema ${schema}`);
        await admin.close();
        const db = await openPostgres(url, {
          connectionOptions: `-c search_path=${schema}`,
          max: 4,
          statementTimeoutMs: options.statementTimeoutMs,
        });
        await migrate(db, migrations);
        return {
          ...db,
          async close() {
            await db.exec(`drop schema ${schema} cascade`);
            await db.close();
          },
        };
      },
    });
  } else if (!warned) {
    warned = true;
    console.warn('[storage tests] TEST_DATABASE_URL is not set: these suites ran on PGlite only.');
  }
  return targets;
}
let warned = false;
