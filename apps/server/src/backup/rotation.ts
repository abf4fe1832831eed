/** Names and rotation of scheduled backups: pure, so the schedule's tests need no disk tricks. */

const NAME = /^engage-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.tar$/;

/** engage-backup-20261125T220000123Z.tar: sorts by time as text. */
export function backupFileName(at: Date): string {
  return `engage-backup-${at.toISOString().replace(/[-:.]/g, '')}.tar`;
}

/** When a scheduled backup was taken, from its name; null for any other file. */
export function backupTime(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m;
  const at = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The scheduled backups among `names`, newest first (other files are never touched). */
export function scheduledBackups(names: readonly string[]): string[] {
  return names.filter((n) => backupTime(n) !== null).sort((a, b) => b.localeCompare(a));
}

/** Which backups to delete so that the newest `keep` remain. */
export function backupsToDelete(names: readonly string[], keep: number): string[] {
  return scheduledBackups(names).slice(keep);
}

/** Milliseconds until the next backup is due: `every` after the newest one, at once if none or overdue. */
export function delayUntilNext(newest: Date | null, now: Date, everyMs: number): number {
  if (!newest) return 0;
  return Math.max(0, Math.min(everyMs, newest.getTime() + everyMs - now.getTime()));
}
