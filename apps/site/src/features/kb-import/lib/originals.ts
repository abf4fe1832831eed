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
