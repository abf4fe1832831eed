/** GET /api/admin/backups: whether the owner's data is being backed up, and the last backup. */
import { z } from 'zod';

/** A backup file: when it was taken, its size, and its name (or path, for `npm run backup`'s). */
const lastBackupSchema = z.object({ at: z.string(), bytes: z.number(), file: z.string() });

export const backupStatusSchema = z.discriminatedUnion('mode', [
  z.object({
    /** BACKUP_DIR is set: the server writes a backup every `everyMs` and keeps `keep`. */
    mode: z.literal('scheduled'),
    everyMs: z.number(),
    keep: z.number(),
    /** The newest backup, scheduled or taken with `npm run backup`. */
    last: lastBackupSchema.nullable(),
    /** The last scheduled backup that failed, cleared by the next that succeeds. */
    lastError: z.object({ at: z.string(), message: z.string() }).nullable(),
  }),
  /** Embedded database, no BACKUP_DIR: only `npm run backup` by hand; `last` is its newest. */
  z.object({ mode: z.literal('off'), last: lastBackupSchema.nullable() }),
  /** DATABASE_URL: PostgreSQL is backed up with its own tools (pg_dump). */
  z.object({ mode: z.literal('postgres') }),
]);
export type BackupStatus = z.infer<typeof backupStatusSchema>;
