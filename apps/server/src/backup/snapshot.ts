import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '@engage/db';
import { BackupError, buildArchive } from './archive.js';

export const DATABASE_MEMBER = 'database.tar.gz';
export const SECRETS_MEMBER = 'secrets.json';

/** Engage's version, written into each manifest (the server package's). */
export const ENGAGE_VERSION = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

/**
 * A backup of a data directory whose PGlite database `db` has open: the database dumped between two
 * statements (writes go on around it) and the generated keys, so restored sessions and API keys still work.
 */
export async function takeBackup(db: Db, dataDir: string, now = new Date()): Promise<Buffer> {
  if (!db.dumpDataDir)
    throw new BackupError('the database is PostgreSQL (DATABASE_URL): back it up with pg_dump instead');
  const database = await db.dumpDataDir();
  const secretsFile = path.join(dataDir, 'secrets.json');
  const secrets = existsSync(secretsFile) ? readFileSync(secretsFile) : Buffer.from('{}');
  return buildArchive({
    engageVersion: ENGAGE_VERSION,
    createdAt: now,
    members: { [DATABASE_MEMBER]: database, [SECRETS_MEMBER]: secrets },
  });
}
