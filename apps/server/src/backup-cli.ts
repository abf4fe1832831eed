// `npm run backup -- --out FILE`: one consistent backup of DATA_DIR (the embedded database and the keys),
// from the running server when there is one, else read directly. Prints one line; exits 1 on failure.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatSize } from '@engage/http-contract';
import { BackupError } from './backup/archive.js';
import { writeFileAtomic } from './backup/files.js';
import { recordManualBackup } from './backup/manual-record.js';
import { backupDataDir } from './backup/take.js';
import { ConfigError, parseConfig } from './platform/config.js';

const USAGE = 'Usage: npm run backup -- --out FILE';

async function main(): Promise<number> {
  process.umask(0o077);
  let out: string | undefined;
  try {
    out = parseArgs({ options: { out: { type: 'string', short: 'o' } } }).values.out;
  } catch (error) {
    console.error(`${(error as Error).message}. ${USAGE}`);
    return 2;
  }
  if (!out) {
    console.error(`Say where to write the backup. ${USAGE}`);
    return 2;
  }
  const config = parseConfig(process.env);
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: the data lives in PostgreSQL. Back it up with pg_dump ' +
        '(docs/operations.md, "Backups and restore"): pg_dump --format=custom --file=engage.dump "$DATABASE_URL"',
    );
    return 1;
  }
  const file = path.resolve(out);
  const { archive, from } = await backupDataDir(config.dataDir);
  writeFileAtomic(file, archive);
  // For the dashboard's backup card: the newest backup, whichever way it was taken.
  recordManualBackup(config.dataDir, { at: new Date().toISOString(), bytes: archive.length, file });
  const source = from === 'server' ? 'from the running server' : 'from the stopped data directory';
  console.log(`Backup of ${config.dataDir} written to ${file} (${formatSize(archive.length)}, ${source}).`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof BackupError)
      console.error(`No backup written: ${error.message}`);
    else console.error(`No backup written: ${(error as Error).message}`);
    process.exit(1);
  },
);
