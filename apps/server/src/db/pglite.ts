import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, QueryResult } from './types.js';

interface PgliteLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

function wrap(target: PgliteLike): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query<T>(sql, [...params]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

/** Opens PGlite: in memory when `dataDir` is undefined, else persisted in that directory. */
export async function openPglite(dataDir?: string): Promise<Db> {
  // pg_trgm backs the admin dashboard's email search index (migrations/admin); loading it costs nothing.
  const pg = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
