import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPglite } from '@engage/db';
import { openPostgres } from '@engage/db';
import type { Db } from '@engage/db';
import type { Logger } from '../platform/logger.js';

/** A problem with the data directory or database that the operator must fix; shown without a stack. */
export class DatabaseOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseOpenError';
  }
}

/**
 * Creates the data directory private to its owner (0700): it holds the database, whose WAL carries
 * email-link tokens in clear, and the signing keys. An existing directory is the operator's to set;
 * one open to other users gets a warning naming the fix rather than a silent chmod.
 */
export function prepareDataDir(dataDir: string, logger: Logger): void {
  let mode: number;
  try {
    mode = statSync(dataDir).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700); // mkdir's mode is filtered by the umask; this does not rest on it
    return;
  }
  if (mode & 0o077) {
    logger.warn(
      `The data directory ${dataDir} is open to other users of this machine ` +
        `(mode ${(mode & 0o777).toString(8)}); it holds the database and keys. Fix: chmod 700 ${dataDir}`,
      { dataDir },
    );
  }
}

/** Whether process `pid` runs (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory's lock file, so that two servers never open one PGlite directory
 * (which would corrupt it). A lock left by a dead process is taken over.
 */
const heldByThisProcess = new Set<string>();

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'engage.lock');
  if (heldByThisProcess.has(lockFile)) {
    throw new DatabaseOpenError(
      `The data directory ${dataDir} is in use by another Engage server in this process. ` +
        'Stop that server, or start this one with another DATA_DIR.',
    );
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      heldByThisProcess.add(lockFile);
      return () => {
        heldByThisProcess.delete(lockFile);
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DatabaseOpenError(
          `The data directory ${dataDir} is in use by another Engage server (process ${pid}). ` +
            'Stop that server, or start this one with another DATA_DIR.',
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DatabaseOpenError(`Could not lock the data directory ${dataDir}.`);
}

export interface OpenDatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL: see PostgresOptions.statementTimeoutMs (0 for start-up's migrations and lock waits). */
  statementTimeoutMs?: number;
  /** PostgreSQL: connections in the pool. */
  max?: number;
}

/** Opens PostgreSQL when a URL is given, else PGlite persisted in `<dataDir>/db`. */
export async function openDatabase({ dataDir, databaseUrl, ...pool }: OpenDatabaseOptions): Promise<Db> {
  if (databaseUrl) {
    try {
      return await openPostgres(databaseUrl, pool);
    } catch (error) {
      throw new DatabaseOpenError(
        `Could not connect to PostgreSQL at DATABASE_URL: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  const dir = path.join(dataDir, 'db');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const isNew = readdirSync(dir).length === 0;
  try {
    const db = await openPglite(dir);
    await db.query('select 1');
    return db;
  } catch (error) {
    throw new DatabaseOpenError(
      isNew
        ? `Could not create the embedded database in ${dir}: ${(error as Error).message}`
        : `The embedded database in ${dir} could not be opened; it may be damaged ` +
            `(${(error as Error).message}). Move that directory aside to start with an empty database.`,
      { cause: error },
    );
  }
}
