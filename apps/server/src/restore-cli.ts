// `npm run restore -- FILE [--force]`: fills an empty or absent DATA_DIR from a backup. Refuses a
// non-empty directory (unless --force, which keeps the old contents aside), a damaged or truncated file
// and a newer format, leaving the directory as it was. Prints one line; exits 1 when it refuses.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError } from './backup/archive.js';
import { restoreBackup } from './backup/restore.js';
import { ConfigError, parseConfig } from './platform/config.js';

const USAGE = 'Usage: npm run restore -- FILE [--force]';

async function main(): Promise<number> {
  process.umask(0o077);
  let args;
  try {
    args = parseArgs({ options: { force: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}. ${USAGE}`);
    return 2;
  }
  const [file, ...extra] = args.positionals;
  if (!file || extra.length) {
    console.error(`Name one backup file. ${USAGE}`);
    return 2;
  }
  const config = parseConfig(process.env);
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md, "Backups and restore"): ' +
        'pg_restore --clean --if-exists --dbname="$DATABASE_URL" engage.dump',
    );
    return 1;
  }
  const result = await restoreBackup({
    file: path.resolve(file),
    dataDir: config.dataDir,
    force: args.values.force,
  });
  const kept = result.previous ? `; its previous contents are in ${result.previous}` : '';
  console.log(
    `Restored ${config.dataDir} from the backup of ${result.createdAt} (Engage ${result.engageVersion})${kept}.`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof BackupError)
      console.error(`Nothing restored: ${error.message}`);
    else console.error(`Nothing restored: ${(error as Error).message}`);
    process.exit(1);
  },
);
