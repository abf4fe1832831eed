import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newerBackup, readManualBackup, recordManualBackup } from './manual-record.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'engage-manual-backup-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const backup = (at: string) => ({ at, bytes: 2048, file: '/backups/engage.tar' });

describe("npm run backup's record", () => {
  it('reads back what was recorded, private to the owner', () => {
    const dir = fresh();
    expect(readManualBackup(dir)).toBeNull();
    recordManualBackup(dir, backup('2026-11-28T10:00:00.000Z'));
    expect(readManualBackup(dir)).toEqual(backup('2026-11-28T10:00:00.000Z'));
    expect(statSync(path.join(dir, 'last-backup.json')).mode & 0o077).toBe(0);
  });

  it('takes a record that is not one (edited, cut short) as no record', () => {
    const dir = fresh();
    const records = [
      '{"at":"yesterday","bytes":1,"file":"x"}',
      '{"at":',
      '[]',
      '{"at":"2026-11-28T10:00:00Z","bytes":-1,"file":"x"}',
    ];
    for (const text of records) {
      writeFileSync(path.join(dir, 'last-backup.json'), text);
      expect(readManualBackup(dir)).toBeNull();
    }
  });

  it('picks the later of two backups, either of which may be missing', () => {
    const early = backup('2026-11-27T10:00:00.000Z');
    const late = backup('2026-11-28T10:00:00.000Z');
    expect(newerBackup(early, late)).toBe(late);
    expect(newerBackup(late, early)).toBe(late);
    expect(newerBackup(null, early)).toBe(early);
    expect(newerBackup(null, null)).toBeNull();
  });
});
