import type { ProviderFile } from '../api/provider-api';

/** Browser local storage keys of the import tool. */
export const storageKeys = {
  uploadedFiles: 'engage.kb-import.uploaded-files',
  apiKey: 'engage.kb-import.api-key',
  assistantId: 'engage.kb-import.assistant-id',
  knowledgeBases: 'engage.kb-import.knowledge-bases',
} as const;

/** The part of Storage the tool uses; tests pass an in-memory one. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** An uploaded file record; `error` says why a failed one failed. */
export interface UploadedFileRecord extends ProviderFile {
  error?: string;
  /**
   * 'processing': the provider took the file and failed to process it, so its content is at fault
   * and sending the same bytes again would fail again (only changed content is retried).
   */
  failure?: 'processing';
}

export interface CreatedKnowledgeBase {
  /** 'query-tool' (also when absent: records kept before v2 existed) or 'v2'. */
  kind?: 'query-tool' | 'v2';
  /** The v2 knowledge base's id. */
  knowledgeBaseId?: string;
  toolId: string;
  name: string;
  description: string;
  functionName: string;
  assistantId: string;
  assistantName: string;
  fileIds: string[];
  createdAt: string;
}

const isString = (v: unknown): v is string => typeof v === 'string';

function isRecord(v: unknown): v is UploadedFileRecord {
  const r = v as UploadedFileRecord | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    (r.failure === undefined || r.failure === 'processing') &&
    isString(r.id) &&
    r.id.length > 0 &&
    isString(r.name) &&
    typeof r.bytes === 'number' &&
    isString(r.status)
  );
}

function isKnowledgeBase(v: unknown): v is CreatedKnowledgeBase {
  const k = v as CreatedKnowledgeBase | null;
  return (
    typeof k === 'object' && k !== null && isString(k.toolId) && isString(k.name) && Array.isArray(k.fileIds)
  );
}

function readList<T>(storage: KeyValueStorage, key: string, guard: (v: unknown) => v is T): T[] {
  try {
    const raw = storage.getItem(key);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(guard) : [];
  } catch {
    // A corrupt or foreign value must not break the page: start from an empty list.
    return [];
  }
}

function write(storage: KeyValueStorage, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: the tool keeps working for this page's life.
  }
}

export const loadUploadedFiles = (s: KeyValueStorage) => readList(s, storageKeys.uploadedFiles, isRecord);
export const saveUploadedFiles = (s: KeyValueStorage, files: readonly UploadedFileRecord[]) =>
  write(
    s,
    storageKeys.uploadedFiles,
    files.map((f) => ({
      id: f.id,
      name: f.name,
      bytes: f.bytes,
      mimetype: f.mimetype,
      status: f.status,
      createdAt: f.createdAt,
      url: f.url,
      ...(f.error ? { error: f.error } : {}),
      // Kept across a reload: content the provider failed to process is not sent again unchanged.
      ...(f.failure === 'processing' ? { failure: f.failure } : {}),
    })),
  );
export const loadKnowledgeBases = (s: KeyValueStorage) =>
  readList(s, storageKeys.knowledgeBases, isKnowledgeBase);
export const saveKnowledgeBases = (s: KeyValueStorage, list: readonly CreatedKnowledgeBase[]) =>
  write(s, storageKeys.knowledgeBases, list);

export function readString(storage: KeyValueStorage, key: string): string {
  try {
    return storage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

export function writeString(storage: KeyValueStorage, key: string, value: string): void {
  try {
    if (value) storage.setItem(key, value);
    else storage.removeItem(key);
  } catch {
    // See write().
  }
}

/** An in-memory KeyValueStorage for tests and for browsers with storage disabled. */
export function memoryStorage(
  initial: Record<string, string> = {},
): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
  };
}
