import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BackupStatus } from '@engage/http-contract';
import { z } from 'zod';
import { writeFileAtomic } from './files.js';

/**
 * The newest backup `npm run backup` wrote, kept beside the data it backs up (DATA_DIR/last-backup.json,
 * 0600), so that the dashboard shows the newest backup whichever way it was taken. The command
 * writes it after the backup file is safely on disk; the server only reads it.
 * @module
 */

export type LastBackup = NonNullable<Extract<BackupStatus, { mode: 'scheduled' }>['last']>;

const FILE = 'last-backup.json';

const recordSchema = z.strictObject({
  at: z.iso.datetime(),
  bytes: z.number().int().nonnegative(),
  file: z.string().min(1).max(4096),
});

export function recordManualBackup(dataDir: string, backup: LastBackup): void {
  writeFileAtomic(path.join(dataDir, FILE), Buffer.from(`${JSON.stringify(backup)}\n`));
}

/** The recorded backup, or null: none yet, or a record that is not one (edited, cut short). */
export function readManualBackup(dataDir: string): LastBackup | null {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(readFileSync(path.join(dataDir, FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The later of two backups (either may be missing). */
export function newerBackup(a: LastBackup | null, b: LastBackup | null): LastBackup | null {
  if (!a || !b) return a ?? b;
  return Date.parse(a.at) >= Date.parse(b.at) ? a : b;
}
