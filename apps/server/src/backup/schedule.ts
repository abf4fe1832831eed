import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BackupStatus } from '@engage/http-contract';
import { schedulePeriodic } from '@engage/jobs';
import type { Logger } from '../platform/logger.js';
import { writeFileAtomic } from './files.js';
import { backupFileName, backupsToDelete, backupTime, delayUntilNext, scheduledBackups } from './rotation.js';

type LastBackup = Extract<BackupStatus, { mode: 'scheduled' }>['last'];

/** The newest scheduled backup among `names` in `dir`, with its size; null when there is none. */
function newestBackup(dir: string, names: readonly string[]): LastBackup {
  const name = scheduledBackups(names)[0];
  const at = name ? backupTime(name) : null;
  if (!name || !at) return null;
  try {
    return { at: at.toISOString(), bytes: statSync(path.join(dir, name)).size, file: name };
  } catch {
    return null; // deleted between the listing and the stat
  }
}

export interface BackupScheduleOptions {
  dir: string;
  everyMs: number;
  keep: number;
  /** Takes one backup (the running server's database and keys). */
  take: () => Promise<Buffer>;
  logger: Logger;
  now?: () => Date;
}

export interface BackupSchedule {
  status(): BackupStatus;
  stop(): void;
}

/**
 * Writes a backup into `dir` every `everyMs` and keeps the newest `keep`. The first one is due `every`
 * after the newest already there (at once if none), so restarts do not skip or pile up backups. A failed
 * backup is logged and retried at the next turn; it never stops the server.
 */
export function scheduleBackups(options: BackupScheduleOptions): BackupSchedule {
  const { dir, everyMs, keep, take, logger } = options;
  const now = options.now ?? (() => new Date());
  let lastError: { at: string; message: string } | null = null;
  // The newest backup as the admin dashboard shows it. Only this schedule writes or deletes in `dir`,
  // so it is read from the disk once and again only after the schedule's own writes, not on every
  // status request (undefined: not read yet, or stale).
  let newestCache: LastBackup | undefined;

  const list = (): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };

  const takeOne = async () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const archive = await take();
    writeFileAtomic(path.join(dir, backupFileName(now())), archive);
    for (const name of backupsToDelete(list(), keep)) rmSync(path.join(dir, name), { force: true });
    newestCache = undefined;
    lastError = null;
    logger.info('scheduled backup written', { dir, bytes: archive.length });
  };

  const newest = scheduledBackups(list())[0];
  const job = schedulePeriodic({
    run: takeOne,
    everyMs,
    // On a timer even when due now, so a server starting with a backup due answers first.
    firstDelayMs: delayUntilNext(newest ? backupTime(newest) : null, now(), everyMs),
    onError: (error) => {
      lastError = { at: now().toISOString(), message: (error as Error).message };
      logger.error('scheduled backup failed', { dir, error: (error as Error).message });
    },
  });

  return {
    status() {
      newestCache ??= newestBackup(dir, list());
      return { mode: 'scheduled', everyMs, keep, last: newestCache, lastError };
    },
    stop() {
      void job.stop();
    },
  };
}
