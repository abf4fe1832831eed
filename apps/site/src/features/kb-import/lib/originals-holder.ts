import type { OriginalsStore } from './originals';
import { FAILED_PREFIX, LOCAL_PREFIX } from './state';
import type { UploadedFileRecord } from './storage';

/**
 * The original File of every upload not yet processed, in memory and in the OriginalsStore (so a
 * reload does not lose it): what makes a failed upload retriable.
 */
export class OriginalsHolder {
  readonly #files = new Map<string, File>();
  readonly #store: OriginalsStore;

  constructor(store: OriginalsStore) {
    this.#store = store;
  }

  has(id: string): boolean {
    return this.#files.has(id);
  }

  get(id: string): File | undefined {
    return this.#files.get(id);
  }

  hold(id: string, file: File): void {
    this.#files.set(id, file);
    void this.#store.put(id, file).catch(() => undefined);
  }

  release(id: string): void {
    if (!this.#files.delete(id)) return;
    void this.#store.delete(id).catch(() => undefined);
  }

  /** Brings back originals an earlier page kept, and forgets those no record needs any more. */
  async restore(records: readonly UploadedFileRecord[]): Promise<void> {
    try {
      const keys = new Set(await this.#store.keys());
      const wanted = new Set<string>();
      for (const f of records) {
        if (f.status === 'done') continue;
        const local = f.id.startsWith(FAILED_PREFIX)
          ? `${LOCAL_PREFIX}${f.id.slice(FAILED_PREFIX.length)}`
          : '';
        const key = keys.has(f.id) ? f.id : local && keys.has(local) ? local : null;
        if (!key) continue;
        const file = await this.#store.get(key);
        if (!file) continue;
        this.#files.set(f.id, file);
        wanted.add(f.id);
        if (key !== f.id) await this.#store.put(f.id, file);
      }
      for (const key of keys) if (!wanted.has(key) && !this.#files.has(key)) await this.#store.delete(key);
    } catch {
      // Originals are a convenience: without them a failed file is chosen again to retry.
    }
  }
}
