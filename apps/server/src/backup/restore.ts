import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { restrictToOwner } from '@engage/db';
import { BackupError, readArchive } from './archive.js';
import { DATABASE_MEMBER, SECRETS_MEMBER } from './snapshot.js';
import { runningServerPid } from './take.js';

export interface RestoreResult {
  createdAt: string;
  engageVersion: string;
  /** Where the directory's previous contents were moved (`--force` on a non-empty directory). */
  previous: string | null;
}

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

function readBackupFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new BackupError(
      `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/**
 * Fills `dataDir` from a backup. Everything is checked and the database opened in a sibling directory
 * first; only then is the target replaced, by renames. Every refusal leaves the target as it was.
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  force?: boolean;
}): Promise<RestoreResult> {
  const { file, dataDir } = options;
  const contents = await readArchive(readBackupFile(file)).catch((error: unknown) => {
    if (error instanceof BackupError) throw new BackupError(`${file}: ${error.message}`);
    throw error;
  });
  const nonEmpty = existsSync(dataDir) && readdirSync(dataDir).length > 0;
  const pid = runningServerPid(dataDir);
  if (pid !== null)
    throw new BackupError(`An Engage server (process ${pid}) is running on ${dataDir}: stop it first.`);
  if (nonEmpty && !options.force)
    throw new BackupError(
      `${dataDir} is not empty: restore into an empty directory, or add --force to replace it.`,
    );

  const staging = `${dataDir}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path.join(staging, 'secrets.json'), contents.members.get(SECRETS_MEMBER) ?? '{}', {
      mode: 0o600,
    });
    const database = contents.members.get(DATABASE_MEMBER);
    if (!database) throw new BackupError(`${file}: it holds no database`);
    const dbDir = path.join(staging, 'db');
    mkdirSync(dbDir, { mode: 0o700 });
    try {
      const pg = await PGlite.create(dbDir, {
        loadDataDir: new Blob([new Uint8Array(database)]),
        extensions: { pg_trgm },
      });
      await pg.query('select 1');
      await pg.close();
    } catch (error) {
      throw new BackupError(`${file}: its database does not open (${(error as Error).message})`);
    }
    restrictToOwner(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }

  let previous: string | null = null;
  if (nonEmpty) {
    previous = `${dataDir}.before-restore-${stamp(new Date())}`;
    renameSync(dataDir, previous);
  } else if (existsSync(dataDir)) {
    rmSync(dataDir, { recursive: true });
  }
  renameSync(staging, dataDir);
  chmodSync(dataDir, 0o700);
  return { createdAt: contents.manifest.createdAt, engageVersion: contents.manifest.engageVersion, previous };
}
