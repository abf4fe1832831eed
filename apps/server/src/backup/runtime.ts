import type { Db } from '@engage/db';
import type { BackupStatus } from '@engage/http-contract';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { openBackupChannel } from './channel.js';
import { newerBackup, readManualBackup } from './manual-record.js';
import { scheduleBackups } from './schedule.js';
import { takeBackup } from './snapshot.js';

export interface Backups {
  status(): BackupStatus;
  close(): Promise<void>;
}

/**
 * The running server's side of backups (embedded database only): the socket `npm run backup` asks, and
 * the schedule of BACKUP_DIR. With PostgreSQL both are the database's own tools' job.
 */
export async function startBackups(config: Config, db: Db, logger: Logger): Promise<Backups> {
  if (db.kind === 'postgres') return { status: () => ({ mode: 'postgres' }), close: async () => undefined };
  const take = () => takeBackup(db, config.dataDir);
  const channel = await openBackupChannel(config.dataDir, take, logger);
  const schedule = config.backups ? scheduleBackups({ ...config.backups, take, logger }) : null;
  return {
    // The newest backup whichever way it was taken: the schedule's, or one `npm run backup` wrote.
    status: () => {
      const manual = readManualBackup(config.dataDir);
      const scheduled = schedule?.status();
      if (!scheduled || scheduled.mode !== 'scheduled') return { mode: 'off', last: manual };
      return { ...scheduled, last: newerBackup(scheduled.last, manual) };
    },
    async close() {
      schedule?.stop();
      await channel?.close();
    },
  };
}
