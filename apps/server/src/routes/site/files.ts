// Reading the built site's files and the headers they are served with.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map', '.wasm']);

export const HTML_TYPE = TYPES['.html'] as string;

export const contentType = (file: string) => TYPES[path.extname(file)] ?? 'application/octet-stream';

/** Text worth compressing: small bodies gain nothing from it. */
export const isCompressible = (file: string, size: number) =>
  COMPRESSIBLE.has(path.extname(file)) && size >= 1024;

/** Pages are revalidated (their configuration may change); hashed assets never change. */
export function cacheControl(urlPath: string, isPage: boolean): string {
  if (isPage) return 'no-cache';
  return urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
}

export interface FileVersion {
  body: Buffer;
  mtime: number;
}

/** A file's bytes and version, or null when there is no such regular file. */
export async function readIfFile(file: string): Promise<FileVersion | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    return { body: await readFile(file), mtime: info.mtimeMs };
  } catch {
    return null;
  }
}

/** A file's version (its modification time), or null when there is no such regular file. */
export async function versionOf(file: string): Promise<number | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.mtimeMs : null;
  } catch {
    return null;
  }
}
