/**
 * The one database interface of Engage over PGlite (embedded, one process) and PostgreSQL
 * (DATABASE_URL, several instances): opening either, running migrations, transactions, advisory
 * locks, a queue per key, and telling an outage from a mistake. The test databases every storage
 * suite runs on are `@engage/db/testing`.
 * @module
 */
export type { Db, Migration, PoolStats, Queryable, QueryResult } from './types.js';
export { openPglite, restrictToOwner } from './pglite.js';
export { openPostgres, type PostgresOptions } from './postgres.js';
export { migrate } from './migrate.js';
export { advisoryXactLock, isLockTimeout } from './advisory-lock.js';
export { keyedQueue, type KeyedQueue } from './keyed-queue.js';
export { isDatabaseUnavailable, noteDatabaseError, watchDatabase } from './availability.js';
