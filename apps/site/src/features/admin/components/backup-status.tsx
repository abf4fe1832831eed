import { formatSize } from '@engage/http-contract';
import { AlertTriangle, DatabaseBackup } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { BackupStatus } from '../api/client';
import { useBackupStatus } from '../api/queries';
import { formatDateTime } from '../lib/format';

/** "24 hours", "30 minutes", "7 days": BACKUP_EVERY as a sentence. */
export function formatInterval(ms: number): string {
  const [unit, size] =
    ms % 86_400_000 === 0
      ? ['day', 86_400_000]
      : ms % 3_600_000 === 0
        ? ['hour', 3_600_000]
        : ['minute', 60_000];
  const n = Math.round(ms / (size as number));
  return n === 1 ? `${unit}` : `${n} ${unit}s`;
}

type LastBackup = NonNullable<Extract<BackupStatus, { mode: 'off' }>['last']>;

/** When the newest backup was taken, and how large it is. */
function LastBackupLine({ last }: { last: LastBackup }) {
  return (
    <p>
      Last backup:{' '}
      <time dateTime={last.at} className="font-medium">
        {formatDateTime(last.at)}
      </time>{' '}
      · {formatSize(last.bytes)}
    </p>
  );
}

function Scheduled({ status, now }: { status: Extract<BackupStatus, { mode: 'scheduled' }>; now: number }) {
  const overdue = status.last && now - Date.parse(status.last.at) > 2 * status.everyMs;
  return (
    <>
      {status.last ? (
        <LastBackupLine last={status.last} />
      ) : (
        <p>No scheduled backup yet; the first is written shortly after the server starts.</p>
      )}
      {(status.lastError || overdue) && (
        <p role="alert" className="flex items-start gap-2 text-destructive">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {status.lastError
            ? `The last backup failed (${formatDateTime(status.lastError.at)}): ${status.lastError.message}`
            : 'The last backup is overdue: check the server’s log.'}
        </p>
      )}
      <p className="text-muted-foreground">
        Every {formatInterval(status.everyMs)}, keeping the last {status.keep}.
      </p>
    </>
  );
}

/** The dashboard's answer to "is my data safe?": the newest backup however taken, or why there is none. */
export function BackupStatusCard({ now }: { now?: number }) {
  const backups = useBackupStatus();
  const status = backups.data;
  return (
    <Card className="gap-2 py-4">
      <CardHeader className="flex-row items-center justify-between gap-2 px-4">
        <CardTitle level={2} className="text-sm font-medium text-muted-foreground">
          Backups
        </CardTitle>
        <DatabaseBackup className="size-4" aria-hidden />
      </CardHeader>
      <CardContent className="grid gap-1 px-4 text-sm" aria-live="polite">
        {backups.isPending && <p className="text-muted-foreground">Loading…</p>}
        {backups.isError && <p role="alert">The backup status could not be loaded.</p>}
        {status?.mode === 'scheduled' && <Scheduled status={status} now={now ?? backups.dataUpdatedAt} />}
        {status?.mode === 'off' && status.last && (
          <>
            <LastBackupLine last={status.last} />
            <p className="text-muted-foreground">
              Taken with npm run backup: <span className="break-all">{status.last.file}</span>. Run it again
              for a newer one, or set BACKUP_DIR on the server to have them taken on a schedule.
            </p>
          </>
        )}
        {status?.mode === 'off' && !status.last && (
          <p className="flex items-start gap-2">
            <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
            No scheduled backups: set BACKUP_DIR on the server, or run npm run backup.
          </p>
        )}
        {status?.mode === 'postgres' && (
          <p>
            The data is in PostgreSQL: back it up with pg_dump (docs/operations.md, “Backups and restore”).
          </p>
        )}
      </CardContent>
    </Card>
  );
}
