/**
 * Zip archives for .docx: reading one with every member's declared and actual inflated size
 * checked (see inflate.ts), and writing stored (uncompressed) ones. A .docx is handed to its parser
 * rebuilt from the checked members only, so the parser never inflates anything itself and never
 * reads a part of the file that was not checked (no parser differential on odd archives). Pure.
 * @module
 */
import { crc32 } from 'node:zlib';
import type { InflationBudget } from './inflate.js';
import { DocumentProblem, inflateCapped } from './inflate.js';

const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** Members read from one archive: a .docx has a few dozen. */
export const MAX_ZIP_MEMBERS = 2_000;

const broken = (why: string) => new DocumentProblem(`the archive is broken (${why})`);

/** The members of a zip archive by name, each inflated within the budget; throws DocumentProblem. */
export async function readZip(bytes: Uint8Array, budget: InflationBudget): Promise<Map<string, Uint8Array>> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buf.lastIndexOf(END_OF_DIRECTORY);
  if (end < 0 || end + 22 > buf.length) throw broken('no central directory');
  const count = buf.readUInt16LE(end + 10);
  const size = buf.readUInt32LE(end + 12);
  const start = buf.readUInt32LE(end + 16);
  if (count === 0xffff || size === 0xffffffff || start === 0xffffffff)
    throw new DocumentProblem('the archive uses ZIP64, which a document of this size never needs');
  if (count > MAX_ZIP_MEMBERS)
    throw new DocumentProblem(`the archive has more than ${MAX_ZIP_MEMBERS} members`);
  if (start + size > end) throw broken('the directory is outside the file');
  const members = new Map<string, Uint8Array>();
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || buf.readUInt32LE(at) !== DIRECTORY_ENTRY) throw broken('a bad directory entry');
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const declared = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const skip = nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + skip;
    // The declared size is checked first: a bomb that admits its size is refused without inflating.
    budget.check(name, compressed, declared);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL_HEADER)
      throw broken(`no header for ${name}`);
    const from = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (from + compressed > buf.length) throw broken(`${name} is cut short`);
    const data = buf.subarray(from, from + compressed);
    let content: Uint8Array | null;
    if (method === 0) content = data;
    else if (method === 8) content = await inflateCapped(data, budget.remaining, true);
    else throw new DocumentProblem(`${name} uses an unsupported compression method (${method})`);
    // Past the remaining budget: the part itself, or the file's total, is over its limit.
    budget.take(name, compressed, content?.length ?? budget.remaining + 1);
    if (content && !members.has(name)) members.set(name, content);
  }
  return members;
}

/** A zip archive of stored (uncompressed) members. */
export function storedZip(files: ReadonlyMap<string, Uint8Array> | Record<string, string>): Uint8Array {
  const entries: [string, Uint8Array][] =
    files instanceof Map
      ? [...files.entries()]
      : Object.entries(files).map(([name, text]) => [name, new TextEncoder().encode(text)]);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = Buffer.from(content);
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    parts.push(local, fileName, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(DIRECTORY_ENTRY, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  END_OF_DIRECTORY.copy(end, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
