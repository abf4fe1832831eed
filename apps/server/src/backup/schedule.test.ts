import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../platform/logger.js';
import { backupFileName, backupsToDelete, delayUntilNext } from './rotation.js';
import { scheduleBackups } from './schedule.js';

const HOUR = 3_600_000;
let dir: string;
const lines: string[] = [];
const logger = createLogger('info', (line) => lines.push(line));

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engage-backups-'));
  lines.length = 0;
  vi.useFakeTimers({ now: new Date('2026-11-25T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

/** Lets the backup's promise chain (take, write, rotate, re-arm) settle on the fake clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('backup rotation', () => {
  it('names sort by time and only scheduled backups are ever deleted', () => {
    const names = [0, 1, 2, 3].map((h) => backupFileName(new Date(Date.UTC(2026, 10, 25, h))));
    expect(backupsToDelete([...names, 'notes.txt', 'engage-backup-x.tar'], 2)).toEqual([names[1], names[0]]);
  });

  it('is due every interval after the newest backup, at once when there is none or it is overdue', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(delayUntilNext(null, now, 24 * HOUR)).toBe(0);
    expect(delayUntilNext(new Date('2026-11-25T06:00:00Z'), now, 24 * HOUR)).toBe(18 * HOUR);
    expect(delayUntilNext(new Date('2026-11-23T06:00:00Z'), now, 24 * HOUR)).toBe(0);
    // A clock set back never pushes the next backup further than one interval.
    expect(delayUntilNext(new Date('2027-01-01T00:00:00Z'), now, 24 * HOUR)).toBe(24 * HOUR);
  });
});

describe('scheduled backups', () => {
  it('writes one every interval and keeps exactly BACKUP_KEEP, newest first', async () => {
    let n = 0;
    const schedule = scheduleBackups({
      dir,
      everyMs: HOUR,
      keep: 3,
      take: async () => Buffer.from(`backup ${++n}`),
      logger,
    });
    await settle();
    expect(readdirSync(dir)).toHaveLength(1);
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(HOUR);
    const files = readdirSync(dir).sort();
    expect(files).toEqual([
      backupFileName(new Date('2026-11-25T03:00:00Z')),
      backupFileName(new Date('2026-11-25T04:00:00Z')),
      backupFileName(new Date('2026-11-25T05:00:00Z')),
    ]);
    expect(statSync(path.join(dir, files[2]!)).mode & 0o777).toBe(0o600);
    expect(schedule.status()).toMatchObject({
      mode: 'scheduled',
      keep: 3,
      last: { at: '2026-11-25T05:00:00.000Z', bytes: 'backup 6'.length, file: files[2] },
      lastError: null,
    });
    schedule.stop();
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('logs a failed backup, shows it, and goes on at the next turn', async () => {
    let fail = true;
    const schedule = scheduleBackups({
      dir,
      everyMs: HOUR,
      keep: 7,
      take: async () => {
        if (fail) throw new Error('disk full');
        return Buffer.from('ok');
      },
      logger,
    });
    await settle();
    expect(readdirSync(dir)).toEqual([]);
    expect(lines.join('\n')).toMatch(/scheduled backup failed.*disk full/);
    expect(schedule.status()).toMatchObject({ last: null, lastError: { message: 'disk full' } });
    fail = false;
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(schedule.status()).toMatchObject({ lastError: null, last: { bytes: 2 } });
    schedule.stop();
  });

  it('after a restart waits for the interval since the newest backup in the directory', async () => {
    writeFileSync(path.join(dir, backupFileName(new Date('2026-11-24T23:30:00Z'))), 'old');
    const take = vi.fn(async () => Buffer.from('new'));
    const schedule = scheduleBackups({ dir, everyMs: HOUR, keep: 7, take, logger });
    await vi.advanceTimersByTimeAsync(29 * 60_000);
    expect(take).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(take).toHaveBeenCalledTimes(1);
    schedule.stop();
  });

  it('reads the directory for the status once, and again only after its own backup', async () => {
    writeFileSync(path.join(dir, backupFileName(new Date('2026-11-24T23:30:00Z'))), 'old');
    const schedule = scheduleBackups({
      dir,
      everyMs: HOUR,
      keep: 7,
      take: async () => Buffer.from('new!'),
      logger,
    });
    expect(schedule.status()).toMatchObject({ last: { at: '2026-11-24T23:30:00.000Z', bytes: 3 } });
    // A file put there behind the schedule's back is not seen: status requests do not list the disk.
    writeFileSync(path.join(dir, backupFileName(new Date('2026-11-24T23:45:00Z'))), 'other');
    expect(schedule.status()).toMatchObject({ last: { at: '2026-11-24T23:30:00.000Z', bytes: 3 } });
    // The schedule's own write refreshes it.
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(schedule.status()).toMatchObject({ last: { at: '2026-11-25T00:30:00.000Z', bytes: 4 } });
    schedule.stop();
  });
});
