// The built pages, prepared once per file version: a page (a landing page, the not-found page that
// every unknown path gets) is read, filled and hashed when it changes, not on every request.
import { readIfFile, versionOf } from './files.js';
import { preparePage, type PreparedPage } from './page-fill.js';
import type { PublicConfig } from './public-config.js';

export interface CachedPage extends PreparedPage {
  mtime: number;
}

/**
 * Pages by file. A request costs one stat (a rebuild under a running server is noticed); the read,
 * the fill and the hashing happen again only when the file's modification time changes.
 */
export function pageCache(config: PublicConfig | undefined) {
  const pages = new Map<string, CachedPage>();
  return async function page(file: string): Promise<CachedPage | null> {
    const mtime = await versionOf(file);
    if (mtime === null) {
      pages.delete(file);
      return null;
    }
    const cached = pages.get(file);
    if (cached?.mtime === mtime) return cached;
    const read = await readIfFile(file);
    if (!read) return null;
    const next = { ...preparePage(read.body.toString('utf8'), config), mtime: read.mtime };
    pages.set(file, next);
    return next;
  };
}
