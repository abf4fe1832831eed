import type { ProviderFile, ProviderKnowledge } from '../api/provider-api';
import type { CreatedKnowledgeBase, UploadedFileRecord } from './storage';

export interface SelectedFile {
  key: string;
  file: File;
}

export interface LogLine {
  id: number;
  at: number;
  level: 'info' | 'error';
  message: string;
}

export interface AlertState {
  variant: 'default' | 'destructive';
  message: string;
}

export interface KbImportState {
  selected: SelectedFile[];
  uploaded: UploadedFileRecord[];
  /** Per-file progress from 0 to 100, by record id. */
  progress: Record<string, number>;
  /** Ids of failed records whose original file is held, so they can be retried. */
  retriable: string[];
  /** Ids ticked for bulk delete. */
  checked: string[];
  logs: LogLine[];
  alert: AlertState | null;
  /** The latest status change, for the polite live region. */
  announcement: string;
  upload: { running: boolean; total: number; finished: number };
  screening: boolean;
  deleting: boolean;
  creating: boolean;
  /** While a v2 knowledge base indexes its files: how many are ready (or failed) of how many. */
  indexing: { settled: number; total: number } | null;
  knowledgeBases: CreatedKnowledgeBase[];
  /** The query tools and v2 knowledge bases at the provider (from any browser), with their files. */
  existing: ProviderKnowledge[];
}

export type Flags = Partial<
  Pick<KbImportState, 'screening' | 'deleting' | 'creating' | 'indexing' | 'upload'>
>;

/** Everything that changes the tool's state; `reduce` is the only place that applies them. */
export type Action =
  | { type: 'flags'; flags: Flags }
  | { type: 'selected'; added: SelectedFile[] }
  | { type: 'unselect'; key: string }
  | { type: 'clearSelection' }
  /** New uploads leave the selection and appear at the top of the list, queued. */
  | { type: 'queued'; records: UploadedFileRecord[] }
  /** Records that were never sent go back to the selection. */
  | { type: 'unqueued'; ids: string[]; files: SelectedFile[] }
  | { type: 'patchRecords'; ids: string[]; patch: Partial<UploadedFileRecord>; progress?: number }
  /** A record takes a new id (an upload answered, or a failed one renamed `failed-…`). */
  | { type: 'replaceRecord'; id: string; record: UploadedFileRecord; progress: number }
  | { type: 'removeRecord'; id: string }
  | { type: 'addRecords'; records: UploadedFileRecord[] }
  | { type: 'progress'; id: string; progress: number }
  | { type: 'uploadFinishedOne' }
  | { type: 'retriable'; ids: string[] }
  | { type: 'checked'; ids: string[] }
  | { type: 'log'; line: LogLine }
  | { type: 'alert'; alert: AlertState | null }
  | { type: 'announce'; message: string }
  | { type: 'knowledgeBaseAdded'; kb: CreatedKnowledgeBase }
  | { type: 'existing'; existing: ProviderKnowledge[] };

export const MAX_LOG_LINES = 1_000;
export const TERMINAL = new Set(['done', 'failed']);
export const LOCAL_PREFIX = 'local-';
export const FAILED_PREFIX = 'failed-';
/** An upload still on its way: the provider has not answered with an id (nothing to delete or check). */
export const isInFlightId = (id: string) => id.startsWith(LOCAL_PREFIX);
/** An upload that failed before the provider took it: it exists in this list only. */
export const isNeverSentId = (id: string) => id.startsWith(FAILED_PREFIX);
/** A record the provider has never had: in flight, or failed before it was sent. */
export const isLocalOnlyId = (id: string) => isInFlightId(id) || isNeverSentId(id);

/** Per-file progress by status: queued 0, uploading 10, processing 50, done/failed 100. */
export function progressOf(status: string): number {
  if (status === 'done' || status === 'failed') return 100;
  if (status === 'uploading') return 10;
  if (status === 'queued') return 0;
  return 50;
}

/** Progress of a file still processing after `attempt` checks: from 50 towards 95. */
export function waitingProgress(attempt: number): number {
  return Math.min(95, 50 + Math.round((attempt / 20) * 45));
}

export function toRecord(f: ProviderFile): UploadedFileRecord {
  return {
    id: f.id,
    name: f.name ?? f.id,
    bytes: typeof f.bytes === 'number' ? f.bytes : 0,
    mimetype: f.mimetype ?? '',
    status: f.status || 'processing',
    createdAt: f.createdAt ?? '',
    url: f.url ?? '',
  };
}

/** Records kept by an earlier page: uploads it cut off come back failed (retriable once chosen again). */
export function initialState(
  stored: UploadedFileRecord[],
  knowledgeBases: CreatedKnowledgeBase[],
): KbImportState {
  const uploaded = stored.map((f) =>
    isInFlightId(f.id) || f.status === 'uploading' || f.status === 'queued'
      ? {
          ...f,
          id: `${FAILED_PREFIX}${f.id.slice(LOCAL_PREFIX.length)}`,
          status: 'failed',
          error: 'Upload interrupted by a page reload',
        }
      : f,
  );
  return {
    selected: [],
    uploaded,
    progress: Object.fromEntries(uploaded.map((f) => [f.id, progressOf(f.status)])),
    retriable: [],
    checked: [],
    logs: [],
    alert: null,
    announcement: '',
    upload: { running: false, total: 0, finished: 0 },
    screening: false,
    deleting: false,
    creating: false,
    indexing: null,
    knowledgeBases,
    existing: [],
  };
}

const without = (progress: Record<string, number>, id: string) => {
  const next = { ...progress };
  delete next[id];
  return next;
};

/** The tool's state transitions, pure: same state and action, same result. */
export function reduce(s: KbImportState, a: Action): KbImportState {
  switch (a.type) {
    case 'flags':
      return { ...s, ...a.flags };
    case 'selected':
      return { ...s, selected: [...s.selected, ...a.added] };
    case 'unselect':
      return { ...s, selected: s.selected.filter((x) => x.key !== a.key) };
    case 'clearSelection':
      return { ...s, selected: [] };
    case 'queued':
      return {
        ...s,
        selected: [],
        uploaded: [...a.records, ...s.uploaded],
        progress: { ...s.progress, ...Object.fromEntries(a.records.map((r) => [r.id, 0])) },
      };
    case 'unqueued': {
      const ids = new Set(a.ids);
      return {
        ...s,
        uploaded: s.uploaded.filter((f) => !ids.has(f.id)),
        selected: [...a.files, ...s.selected],
      };
    }
    case 'patchRecords': {
      const ids = new Set(a.ids);
      // Progress alone leaves the records (and local storage) untouched.
      const records =
        Object.keys(a.patch).length === 0
          ? s.uploaded
          : s.uploaded.map((f) => (ids.has(f.id) ? { ...f, ...a.patch } : f));
      const progress =
        a.progress === undefined
          ? s.progress
          : { ...s.progress, ...Object.fromEntries(a.ids.map((id) => [id, a.progress as number])) };
      return { ...s, uploaded: records, progress };
    }
    case 'replaceRecord':
      return {
        ...s,
        uploaded: s.uploaded.map((f) => (f.id === a.id ? a.record : f)),
        progress: { ...without(s.progress, a.id), [a.record.id]: a.progress },
        checked: s.checked.filter((c) => c !== a.id),
      };
    case 'removeRecord':
      return {
        ...s,
        uploaded: s.uploaded.filter((f) => f.id !== a.id),
        checked: s.checked.filter((c) => c !== a.id),
        retriable: s.retriable.filter((c) => c !== a.id),
        progress: without(s.progress, a.id),
      };
    case 'addRecords': {
      const known = new Set(s.uploaded.map((f) => f.id));
      const added = a.records.filter((f) => !known.has(f.id));
      return {
        ...s,
        uploaded: [...s.uploaded, ...added],
        progress: { ...s.progress, ...Object.fromEntries(added.map((f) => [f.id, progressOf(f.status)])) },
      };
    }
    case 'progress':
      return { ...s, progress: { ...s.progress, [a.id]: a.progress } };
    case 'uploadFinishedOne':
      return { ...s, upload: { ...s.upload, finished: s.upload.finished + 1 } };
    case 'retriable':
      return { ...s, retriable: a.ids };
    case 'checked':
      return { ...s, checked: a.ids };
    case 'log': {
      const logs = s.logs.length >= MAX_LOG_LINES ? s.logs.slice(1) : s.logs;
      return { ...s, logs: [...logs, a.line] };
    }
    case 'alert':
      return { ...s, alert: a.alert };
    case 'announce':
      return { ...s, announcement: a.message };
    case 'knowledgeBaseAdded':
      return { ...s, knowledgeBases: [a.kb, ...s.knowledgeBases] };
    case 'existing':
      return { ...s, existing: a.existing };
  }
}
