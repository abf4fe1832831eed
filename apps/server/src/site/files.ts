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

/**
 * Pages are revalidated (their configuration may change); content-hashed files (the site's /assets/,
 * the widget's /embed/ but its manifest) never change; /embed.js names the current files, so a site's
 * visitors get a new build within minutes.
 */
export function cacheControl(urlPath: string, isPage: boolean): string {
  if (isPage || urlPath === '/embed/manifest.json') return 'no-cache';
  const hashed = urlPath.startsWith('/assets/') || urlPath.startsWith('/embed/');
  return hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
}

/**
 * The widget other sites load (/embed.js, and /embed/…: its hashed copy, the React view, chunks,
 * the microphone worklet): fetched from their pages, as modules (CORS mode) or with SRI, so readable
 * by any origin; they hold no data, only code every visitor gets.
 */
export const isEmbedFile = (urlPath: string) => urlPath === '/embed.js' || urlPath.startsWith('/embed/');
export const EMBED_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

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
