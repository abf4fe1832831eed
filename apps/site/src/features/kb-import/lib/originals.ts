import { FAILED_PREFIX, LOCAL_PREFIX } from './reducer';
import type { UploadedFileRecord } from './storage';
/**
 * Where the original File of an upload in flight or a failed upload is held, so it can be retried.
 * In the browser it is IndexedDB (Files are structured-cloneable), so an upload cut off by a reload
 * is still retriable afterwards; elsewhere, memory.
 */
export interface OriginalsStore {
  put(id: string, file: File): Promise<void>;
  get(id: string): Promise<File | undefined>;
  delete(id: string): Promise<void>;
  keys(): Promise<string[]>;
}

export function memoryOriginals(): OriginalsStore & { data: Map<string, File> } {
  const data = new Map<string, File>();
  return {
    data,
    put: async (id, file) => void data.set(id, file),
    get: async (id) => data.get(id),
    delete: async (id) => void data.delete(id),
    keys: async () => [...data.keys()],
  };
}

const DB_NAME = 'engage-kb-import';
const STORE = 'originals';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/** IndexedDB-backed originals; falls back to memory when IndexedDB is missing or refuses to open. */
export function browserOriginals(factory: IDBFactory | undefined = globalThis.indexedDB): OriginalsStore {
  if (!factory) return memoryOriginals();
  const fallback = memoryOriginals();
  const opening: Promise<IDBDatabase | null> = new Promise((resolve) => {
    try {
      const open = factory.open(DB_NAME, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(STORE);
      open.onsuccess = () => resolve(open.result);
      // Private modes and disabled storage: keep working for this page's life.
      open.onerror = () => resolve(null);
      open.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  const run = async <T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await opening;
    if (!db) throw new Error('no database');
    return request(fn(db.transaction(STORE, mode).objectStore(STORE)));
  };
  const safe = async <T>(primary: () => Promise<T>, secondary: () => Promise<T>): Promise<T> => {
    if (!(await opening)) return secondary();
    try {
      return await primary();
    } catch {
      return secondary();
    }
  };
  return {
    put: (id, file) =>
      safe(
        async () => void (await run('readwrite', (s) => s.put(file, id))),
        () => fallback.put(id, file),
      ),
    get: (id) =>
      safe(
        async () => {
          const value: unknown = await run('readonly', (s) => s.get(id));
          return value instanceof Blob ? (value as File) : undefined;
        },
        () => fallback.get(id),
      ),
    delete: (id) =>
      safe(
        async () => void (await run('readwrite', (s) => s.delete(id))),
        () => fallback.delete(id),
      ),
    keys: () =>
      safe(
        async () => (await run('readonly', (s) => s.getAllKeys())).map(String),
        () => fallback.keys(),
      ),
  };
}

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
