// Brotli for the site's text: compressed once per file version, off the event loop, kept in memory.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';

const compressBrotli = promisify(brotliCompress);

/** True when an Accept-Encoding header accepts `br` (a q of 0 refuses it). */
export const acceptsBrotli = (header: string | undefined) =>
  (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    return name?.trim().toLowerCase() === 'br' && (q === undefined || Number(q) > 0);
  });

/**
 * Keyed by file and version: a page is filled with one configuration per start, so its compressed
 * bytes stay right until the file changes (a rebuild under a running server).
 */
export function brotliCache() {
  const cache = new Map<string, { mtime: number; body: Buffer }>();
  return async function compressed(file: string, mtime: number, body: Buffer): Promise<Buffer> {
    const cached = cache.get(file);
    if (cached?.mtime === mtime) return cached.body;
    // Quality 11 once per file version, in zlib's thread pool.
    const next = await compressBrotli(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    cache.set(file, { mtime, body: next });
    return next;
  };
}
