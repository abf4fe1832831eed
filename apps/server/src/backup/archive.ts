import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { z } from 'zod';

/**
 * A backup file: an uncompressed tar whose first member is `manifest.json` (format version, Engage
 * version, creation time, and each other member's size and SHA-256), followed by those members. The
 * database member is PGlite's own data-directory dump (gzip'd tar); `secrets.json` holds the keys.
 */
export const BACKUP_FORMAT = 1;
export const MANIFEST_NAME = 'manifest.json';

/** A problem with a backup file or its target, shown to the operator as one line. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const memberName = z.string().regex(/^[a-z][a-z0-9.-]{0,63}$/);
const manifestSchema = z.object({
  format: z.number().int().positive(),
  engageVersion: z.string().max(64),
  createdAt: z.iso.datetime(),
  database: z.literal('pglite'),
  members: z
    .array(
      z.object({
        name: memberName,
        bytes: z.number().int().nonnegative(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .min(1)
    .max(16),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export interface BackupContents {
  manifest: BackupManifest;
  /** Member name → bytes, each checked against the manifest. */
  members: Map<string, Buffer>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Builds the archive in memory (the database dump is in memory already: PGlite hands it over as one blob). */
export async function buildArchive(input: {
  engageVersion: string;
  createdAt: Date;
  members: Record<string, Buffer>;
}): Promise<Buffer> {
  const entries = Object.entries(input.members);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    engageVersion: input.engageVersion,
    createdAt: input.createdAt.toISOString(),
    database: 'pglite',
    members: entries.map(([name, data]) => ({ name, bytes: data.length, sha256: sha256(data) })),
  };
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (chunk) => chunks.push(chunk as Buffer));
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  const add = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: data.length, mode: 0o600, mtime: input.createdAt }, data, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  await add(MANIFEST_NAME, Buffer.from(JSON.stringify(manifest, null, 2)));
  for (const [name, data] of entries) await add(name, data);
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** The largest member read into memory: a damaged header must not make restore allocate gigabytes. */
const MAX_MEMBER_BYTES = 8 * 1024 * 1024 * 1024;

async function readMembers(file: Buffer): Promise<Map<string, Buffer>> {
  const members = new Map<string, Buffer>();
  const extract = tar.extract();
  const finished = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      if (header.type !== 'file' || !memberName.safeParse(header.name).success || members.has(header.name)) {
        stream.resume();
        reject(new BackupError(`it holds an unexpected entry (${JSON.stringify(header.name).slice(0, 80)})`));
        return;
      }
      if ((header.size ?? 0) > MAX_MEMBER_BYTES) {
        reject(new BackupError(`its member ${header.name} is implausibly large`));
        return;
      }
      const parts: Buffer[] = [];
      stream.on('data', (chunk) => parts.push(chunk as Buffer));
      stream.on('end', () => {
        members.set(header.name, Buffer.concat(parts));
        next();
      });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', (error: Error) =>
      reject(new BackupError(`it is not a complete archive (${error.message})`)),
    );
  });
  Readable.from([file]).pipe(extract);
  await finished;
  return members;
}

/**
 * Reads and checks a backup file: a newer format, a damaged manifest, a missing or truncated member or
 * a checksum that does not match each throw BackupError saying which.
 */
export async function readArchive(file: Buffer): Promise<BackupContents> {
  if (file.length < 1024) throw new BackupError('it is too short to be an Engage backup (truncated?)');
  const members = await readMembers(file);
  const rawManifest = members.get(MANIFEST_NAME);
  if (!rawManifest) throw new BackupError('it has no manifest.json: it is not an Engage backup');
  let json: unknown;
  try {
    json = JSON.parse(rawManifest.toString('utf8'));
  } catch {
    throw new BackupError('its manifest.json is damaged');
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > BACKUP_FORMAT)
    throw new BackupError(
      `it was written in backup format ${format} by a newer Engage; this one reads format ${BACKUP_FORMAT}`,
    );
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new BackupError('its manifest.json is damaged');
  const manifest = parsed.data;
  const checked = new Map<string, Buffer>();
  for (const member of manifest.members) {
    const data = members.get(member.name);
    if (!data) throw new BackupError(`it lacks ${member.name} (truncated?)`);
    if (data.length !== member.bytes || sha256(data) !== member.sha256)
      throw new BackupError(`the checksum of ${member.name} does not match: the file is damaged`);
    checked.set(member.name, data);
  }
  if (members.size !== manifest.members.length + 1)
    throw new BackupError('it holds members its manifest does not list');
  return { manifest, members: checked };
}
