/** The result of one statement: rows, and how many rows it changed. */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  /** One statement with $1-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, schema set-up). */
  exec(sql: string): Promise<void>;
}

/** The one db interface over PGlite (embedded) and PostgreSQL (DATABASE_URL). */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * PGlite only: a consistent copy of the whole data directory (PGlite's own gzip'd tar), taken between
   * two statements while the database stays open; restoring it is a crash recovery to that moment.
   */
  dumpDataDir?(): Promise<Buffer>;
  /** PostgreSQL only: the pool's connections now, for the operators' metrics. */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection (the pool is at its maximum). */
  waiting: number;
}

/** A versioned migration. Ids are ordered within their module and unique across modules. */
export interface Migration {
  id: string;
  sql: string;
}
