import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isAlive, lockDataDir, openDatabase } from '../db/open.js';
import { BackupError } from './archive.js';
import { requestBackup } from './channel.js';
import { takeBackup } from './snapshot.js';

/** The live process holding the data directory's lock, if any. */
export function runningServerPid(dataDir: string): number | null {
  const lockFile = path.join(dataDir, 'engage.lock');
  if (!existsSync(lockFile)) return null;
  const pid = Number(readFileSync(lockFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/**
 * A backup of `dataDir`: from the running server when there is one (it holds the database open), else
 * read directly, holding the directory's lock so that no server starts on it meanwhile.
 */
export async function backupDataDir(
  dataDir: string,
): Promise<{ archive: Buffer; from: 'server' | 'directory' }> {
  if (runningServerPid(dataDir) !== null) return { archive: await requestBackup(dataDir), from: 'server' };
  if (!existsSync(path.join(dataDir, 'db', 'PG_VERSION')))
    throw new BackupError(`${dataDir} holds no Engage database (is DATA_DIR right?)`);
  const unlock = lockDataDir(dataDir);
  try {
    const db = await openDatabase({ dataDir });
    try {
      return { archive: await takeBackup(db, dataDir), from: 'directory' };
    } finally {
      await db.close();
    }
  } finally {
    unlock();
  }
}
