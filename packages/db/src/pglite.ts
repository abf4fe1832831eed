import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
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

/**
 * Takes group and other permissions off everything under `dir`. PGlite's file system sets modes itself,
 * past the process umask: the data files it unpacks on first start are 0666, and it rewrites some
 * (pg_internal.init, 0644) on every start. Files PostgreSQL creates while running are 0600.
 */
export function restrictToOwner(dir: string): void {
  const visit = (p: string) => {
    const stat = lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) chmodSync(p, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
}

/**
 * PostgreSQL's buffer cache inside PGlite. Its default, 128 MB, is touched in full at start and
 * was a third of an idle server's memory; one site's accounts, sessions and documents fit in far
 * less, and the files behind them stay in the operating system's cache.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/** Opens PGlite: in memory when `dataDir` is undefined, else persisted in that directory. */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pg = await PGlite.create(dataDir, {
    // pg_trgm backs the admin dashboard's email search index (migrations/admin); loading it costs nothing.
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  if (dataDir) restrictToOwner(dataDir);
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    dumpDataDir: async () => Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer()),
    close: async () => {
      await pg.close();
      if (dataDir) restrictToOwner(dataDir);
    },
  };
}
