import { describe, expect, it } from 'vitest';
import { BACKUP_FORMAT, BackupError, buildArchive, readArchive } from './archive.js';

const members = { 'database.tar.gz': Buffer.alloc(5000, 7), 'secrets.json': Buffer.from('{"k":"v"}') };
const build = () =>
  buildArchive({ engageVersion: '0.1.0', createdAt: new Date('2026-11-25T22:00:00Z'), members });

/** Rewrites the manifest (the first member) in place; the tar header's size stays valid if the length does. */
function withManifest(file: Buffer, edit: (json: string) => string): Buffer {
  const copy = Buffer.from(file);
  const start = 512;
  const end = copy.indexOf(0, start);
  const edited = edit(copy.subarray(start, end).toString('utf8'));
  expect(edited.length).toBe(end - start);
  copy.write(edited, start, 'utf8');
  return copy;
}

describe('backup archive', () => {
  it('reads back what it wrote, with the manifest describing each member', async () => {
    const read = await readArchive(await build());
    expect(read.manifest).toMatchObject({
      format: BACKUP_FORMAT,
      engageVersion: '0.1.0',
      createdAt: '2026-11-25T22:00:00.000Z',
    });
    expect(read.members.get('secrets.json')?.toString()).toBe('{"k":"v"}');
    expect(read.members.get('database.tar.gz')?.equals(members['database.tar.gz'])).toBe(true);
  });

  it('refuses a truncated file', async () => {
    const file = await build();
    for (const length of [100, 2048, Math.floor(file.length / 2), file.length - 1100]) {
      await expect(readArchive(file.subarray(0, length))).rejects.toThrow(BackupError);
    }
  });

  it('refuses a member whose bytes changed, naming the checksum', async () => {
    const file = await build();
    const damaged = Buffer.from(file);
    const at = damaged.indexOf(Buffer.alloc(16, 7));
    damaged[at + 100] = 8;
    await expect(readArchive(damaged)).rejects.toThrow(/checksum of database\.tar\.gz does not match/);
  });

  it('refuses a newer format, saying so', async () => {
    const file = withManifest(await build(), (json) =>
      json.replace(`"format": ${BACKUP_FORMAT}`, `"format": 9`),
    );
    await expect(readArchive(file)).rejects.toThrow(/format 9 by a newer Engage/);
  });

  it('refuses a damaged manifest and a file that is not an archive', async () => {
    const file = withManifest(await build(), (json) => json.replace('"database":', '"databasX":'));
    await expect(readArchive(file)).rejects.toThrow(/manifest\.json is damaged/);
    await expect(readArchive(Buffer.alloc(4096, 65))).rejects.toThrow(BackupError);
  });
});
