import pg from 'pg';
import { noteDatabaseError } from './availability.js';
import type { Db, Queryable, QueryResult } from './types.js';

// int8 (counts, sums) as JS numbers, like PGlite; our counts stay far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

interface ClientLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

function wrap(client: ClientLike): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      try {
        const result = await client.query(sql, [...params]);
        return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        noteDatabaseError(error);
        throw error;
      }
    },
    async exec(sql: string) {
      try {
        await client.query(sql);
      } catch (error) {
        noteDatabaseError(error);
        throw error;
      }
    },
  };
}

export interface PostgresOptions {
  /** Extra options for every connection, for example `-c search_path=x` for an isolated test schema. */
  connectionOptions?: string;
  max?: number;
  /**
   * Longest a statement may run (ms), enforced by the server (statement_timeout) and, a little later,
   * by the client (a database that stopped answering). 0: no limit, for start-up's lock waits and
   * migrations. Default 8 s, so a request meets an unreachable database as a 503 within 10 s.
   */
  statementTimeoutMs?: number;
}

/** A new connection that takes longer than this fails (a database host that does not answer). */
const CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 8_000;

/** Connects a pool to PostgreSQL and checks the connection once, so a bad URL fails at start. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db> {
  const timeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.connectionOptions,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Dead connections (a restarted server, a dropped network) are noticed, then replaced.
    keepAlive: true,
    ...(timeout > 0 ? { statement_timeout: timeout, query_timeout: timeout + 1_000 } : {}),
  });
  // An idle client's error (server restart) must not crash the process: the pool drops that client
  // and the next query opens a new connection, so an outage ends without a restart.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect().catch((error: unknown) => {
        noteDatabaseError(error);
        throw error;
      });
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        noteDatabaseError(error);
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
