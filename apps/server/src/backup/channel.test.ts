import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../platform/logger.js';
import { BACKUP_BUSY, openBackupChannel, requestBackup, type BackupChannel } from './channel.js';

let dir: string;
let channel: BackupChannel | null = null;
const logger = createLogger('error', () => {});

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engage-channel-'));
});
afterEach(async () => {
  await channel?.close();
  channel = null;
  rmSync(dir, { recursive: true, force: true });
});

/** Backups that finish when the test says so; `nextCall()` resolves when the next one begins. */
function heldBackups() {
  const pending: ((archive: Buffer) => void)[] = [];
  let onCall: (() => void) | null = null;
  const produce = () =>
    new Promise<Buffer>((resolve) => {
      pending.push(resolve);
      onCall?.();
    });
  const nextCall = () => new Promise<void>((resolve) => (onCall = resolve));
  return { produce, pending, nextCall };
}

describe('the backup socket', () => {
  it('takes one backup at a time: a second request meanwhile gets a clear busy answer', async () => {
    const held = heldBackups();
    channel = await openBackupChannel(dir, held.produce, logger);
    let begun = held.nextCall();
    const first = requestBackup(dir);
    await begun;
    await expect(requestBackup(dir)).rejects.toThrow(BACKUP_BUSY);
    expect(held.pending).toHaveLength(1);

    held.pending[0]!(Buffer.from('archive 1'));
    await expect(first).resolves.toEqual(Buffer.from('archive 1'));
    // Free again once it has finished.
    begun = held.nextCall();
    const third = requestBackup(dir);
    await begun;
    held.pending[1]!(Buffer.from('archive 2'));
    await expect(third).resolves.toEqual(Buffer.from('archive 2'));
  });

  it('is free again after a failed backup', async () => {
    let fail = true;
    channel = await openBackupChannel(
      dir,
      async () => {
        if (fail) throw new Error('disk full');
        return Buffer.from('ok');
      },
      logger,
    );
    await expect(requestBackup(dir)).rejects.toThrow('disk full');
    fail = false;
    await expect(requestBackup(dir)).resolves.toEqual(Buffer.from('ok'));
  });
});
