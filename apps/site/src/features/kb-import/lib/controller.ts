import {
  isProviderHttpError,
  isProviderNetworkError,
  type ProviderApi,
  type ProviderFile,
} from '../api/provider-api';
import {
  DEFAULT_KB_DESCRIPTION,
  DEFAULT_KB_NAME,
  DELETE_GAP_MS,
  DELETE_RATE_LIMIT_WAIT_MS,
  FILE_GAP_MS,
  MAX_RETRIES,
  RATE_LIMIT_RETRIES,
  POLL_MAX_ATTEMPTS,
  POLL_OVERALL_TIMEOUT_MS,
  UPLOAD_CONCURRENCY,
  pollDelay,
} from './constants';
import { screenSelection } from './duplicates';
import { mimeTypeFor } from './file-types';
import { formatSize } from './format-size';
import { toFunctionName } from './function-name';
import { messages } from './messages';
import { memoryOriginals, type OriginalsStore } from './originals';
import { isRetryableStatus, retryDelay } from './retry';
import { abortError, isAbortError, sleep } from './sleep';
import {
  loadKnowledgeBases,
  loadUploadedFiles,
  saveKnowledgeBases,
  saveUploadedFiles,
  type CreatedKnowledgeBase,
  type KeyValueStorage,
  type UploadedFileRecord,
} from './storage';

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
  knowledgeBases: CreatedKnowledgeBase[];
}

export interface ControllerOptions {
  storage: KeyValueStorage;
  /** The provider's display name, for the duplicate reason. */
  providerName: string;
  /** The API for the current settings, or null while no key is available. */
  getApi: () => ProviderApi | null;
  /** Where originals of failed uploads are kept for retries (default: memory). */
  originals?: OriginalsStore;
  concurrency?: number;
  gapMs?: number;
  maxRetries?: number;
  now?: () => number;
  newId?: () => string;
}

export interface KnowledgeBaseInput {
  name: string;
  description: string;
  assistantId: string;
  assistantName?: string;
}

const TERMINAL = new Set(['done', 'failed']);
const LOCAL_PREFIX = 'local-';
const FAILED_PREFIX = 'failed-';
const MAX_LOG_LINES = 1_000;

export const isLocalOnlyId = (id: string) => id.startsWith(FAILED_PREFIX) || id.startsWith(LOCAL_PREFIX);

interface Tracked {
  attempt: number;
  startedAt: number;
  nextAt: number;
}

/**
 * The import tool's state and every action on it, with no React: components subscribe and call.
 * Upload lanes, the status poll loop and bulk delete live here so they are tested with fake timers.
 */
export class KbImportController {
  #state: KbImportState;
  readonly #listeners = new Set<() => void>();
  readonly #originals = new Map<string, File>();
  readonly #tracked = new Map<string, Tracked>();
  readonly #opts: Required<Omit<ControllerOptions, 'storage' | 'getApi' | 'providerName' | 'originals'>> &
    Pick<ControllerOptions, 'storage' | 'getApi' | 'providerName'>;
  readonly #store: OriginalsStore;
  /** Settles once originals kept by an earlier page (IndexedDB) are back in memory. */
  readonly restored: Promise<void>;
  #uploadAbort: AbortController | null = null;
  #lifeAbort: AbortController | null = null;
  #polling = false;
  #wake: (() => void) | null = null;
  #logId = 0;

  constructor(options: ControllerOptions) {
    this.#opts = {
      concurrency: UPLOAD_CONCURRENCY,
      gapMs: FILE_GAP_MS,
      maxRetries: MAX_RETRIES,
      now: Date.now,
      newId: () => crypto.randomUUID(),
      ...options,
    };
    // Uploads cut off by a reload come back as failed records (retriable once the file is chosen again).
    const uploaded = loadUploadedFiles(options.storage).map((f) =>
      f.id.startsWith(LOCAL_PREFIX) || f.status === 'uploading' || f.status === 'queued'
        ? {
            ...f,
            id: `${FAILED_PREFIX}${f.id.slice(LOCAL_PREFIX.length)}`,
            status: 'failed',
            error: 'Upload interrupted by a page reload',
          }
        : f,
    );
    this.#state = {
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
      knowledgeBases: loadKnowledgeBases(options.storage),
    };
    saveUploadedFiles(options.storage, uploaded);
    this.#store = options.originals ?? memoryOriginals();
    this.restored = this.#restoreOriginals();
  }

  /** Brings back originals an earlier page kept, and forgets those no record needs any more. */
  async #restoreOriginals(): Promise<void> {
    try {
      const keys = new Set(await this.#store.keys());
      const wanted = new Set<string>();
      for (const f of this.#state.uploaded) {
        if (f.status === 'done') continue;
        const local = f.id.startsWith(FAILED_PREFIX)
          ? `${LOCAL_PREFIX}${f.id.slice(FAILED_PREFIX.length)}`
          : '';
        const key = keys.has(f.id) ? f.id : local && keys.has(local) ? local : null;
        if (!key) continue;
        const file = await this.#store.get(key);
        if (!file) continue;
        this.#originals.set(f.id, file);
        wanted.add(f.id);
        if (key !== f.id) await this.#store.put(f.id, file);
      }
      for (const key of keys)
        if (!wanted.has(key) && !this.#originals.has(key)) await this.#store.delete(key);
    } catch {
      // Originals are a convenience: without them a failed file is chosen again to retry.
    }
    this.#syncRetriable();
  }

  #hold(id: string, file: File): void {
    this.#originals.set(id, file);
    void this.#store.put(id, file).catch(() => undefined);
  }

  #release(id: string): void {
    this.#originals.delete(id);
    void this.#store.delete(id).catch(() => undefined);
  }

  /** The API for the current settings, or null while no key is available. */
  api(): ProviderApi | null {
    return this.#opts.getApi();
  }

  // ---- subscription -------------------------------------------------------------------------

  getState = (): KbImportState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #set(patch: Partial<KbImportState>): void {
    const previous = this.#state;
    this.#state = { ...previous, ...patch };
    if (patch.uploaded && patch.uploaded !== previous.uploaded)
      saveUploadedFiles(this.#opts.storage, patch.uploaded);
    if (patch.knowledgeBases && patch.knowledgeBases !== previous.knowledgeBases)
      saveKnowledgeBases(this.#opts.storage, patch.knowledgeBases);
    for (const listener of this.#listeners) listener();
  }

  /** Starts background work (status polling of processing files); returns the stop function. */
  activate(): () => void {
    const life = new AbortController();
    this.#lifeAbort = life;
    for (const f of this.#state.uploaded)
      if (!TERMINAL.has(f.status) && !isLocalOnlyId(f.id)) this.#track(f.id);
    return () => {
      life.abort();
      this.#uploadAbort?.abort();
      this.#tracked.clear();
      this.#wake?.();
      if (this.#lifeAbort === life) this.#lifeAbort = null;
    };
  }

  // ---- logs and alerts ----------------------------------------------------------------------

  log(message: string, level: LogLine['level'] = 'info'): void {
    const line: LogLine = { id: ++this.#logId, at: this.#opts.now(), level, message };
    const logs = this.#state.logs.length >= MAX_LOG_LINES ? this.#state.logs.slice(1) : this.#state.logs;
    this.#set({ logs: [...logs, line] });
  }

  #alert(variant: AlertState['variant'], message: string): void {
    this.log(message, variant === 'destructive' ? 'error' : 'info');
    this.#set({ alert: { variant, message } });
  }

  dismissAlert(): void {
    this.#set({ alert: null });
  }

  #announce(message: string): void {
    this.log(message);
    this.#set({ announcement: message });
  }

  /** The message for a failed provider call, 401 being always the key's fault (SPEC §8). */
  #describe(error: unknown, fallback: (status: number, statusText: string, body: string) => string): string {
    if (isProviderHttpError(error)) {
      if (error.status === 401) return messages.invalidApiKey;
      return fallback(error.status, error.statusText, error.body);
    }
    if (isProviderNetworkError(error)) return fallback(0, 'Network error', error.message);
    return fallback(0, 'Error', error instanceof Error ? error.message : String(error));
  }

  // ---- selection ----------------------------------------------------------------------------

  /** Screens newly chosen files against the allow-list and the duplicate rules, then selects them. */
  async addFiles(files: readonly File[]): Promise<void> {
    if (files.length === 0) return;
    const api = this.#opts.getApi();
    if (!api) {
      this.#alert('destructive', messages.keyRequiredForDuplicates);
      return;
    }
    this.#set({ screening: true });
    let providerFiles: ProviderFile[];
    try {
      providerFiles = await this.#listFiles(api);
    } catch (error) {
      this.#set({ screening: false });
      this.#alert(
        'destructive',
        this.#describe(error, (s, t) => messages.loadFailed(s, t)),
      );
      return;
    }
    const { accepted, skipped } = screenSelection(
      files.map((file) => ({ name: file.name, size: file.size, file })),
      {
        providerFiles,
        uploaded: this.#state.uploaded.filter((f) => !f.id.startsWith(FAILED_PREFIX)),
        selected: this.#state.selected.map((s) => ({ name: s.file.name, size: s.file.size })),
      },
      this.#opts.providerName,
    );
    const added = accepted.map(({ file }) => ({ key: this.#opts.newId(), file }));
    this.#set({ screening: false, selected: [...this.#state.selected, ...added] });
    for (const a of added) this.log(`Selected ${a.file.name} (${formatSize(a.file.size)})`);
    if (accepted.length === 0) {
      if (skipped.length > 0) this.log(messages.skipped(skipped), 'error');
      this.#alert('destructive', messages.noNewFiles);
    } else if (skipped.length > 0) this.#alert('destructive', messages.skipped(skipped));
    else this.#set({ alert: null });
  }

  unselect(key: string): void {
    this.#set({ selected: this.#state.selected.filter((s) => s.key !== key) });
  }

  clearSelection(): void {
    this.#set({ selected: [] });
  }

  // ---- upload -------------------------------------------------------------------------------

  /** Uploads every selected file: bounded concurrency, SPEC's gap per lane, retries with backoff. */
  async upload(): Promise<void> {
    if (this.#state.upload.running || this.#state.selected.length === 0) return;
    const api = this.#opts.getApi();
    if (!api) {
      this.#alert('destructive', 'API key required to upload files');
      return;
    }
    const batch = this.#state.selected;
    const createdAt = new Date(this.#opts.now()).toISOString();
    const records: UploadedFileRecord[] = batch.map(({ key, file }) => {
      const id = `${LOCAL_PREFIX}${key}`;
      this.#hold(id, file);
      return {
        id,
        name: file.name,
        bytes: file.size,
        mimetype: mimeTypeFor(file.name),
        status: 'queued',
        createdAt,
        url: '',
      };
    });
    this.#set({
      selected: [],
      uploaded: [...records, ...this.#state.uploaded],
      progress: { ...this.#state.progress, ...Object.fromEntries(records.map((r) => [r.id, 0])) },
    });
    this.log(`Uploading ${records.length} file(s), ${this.#opts.concurrency} at a time`);
    const life = this.#lifeAbort?.signal;
    const { succeeded, failed, cancelled } = await this.#runBatch(
      api,
      records.map((r) => r.id),
    );
    if (cancelled.length > 0 && life?.aborted) {
      // The page went away: the records and their kept originals stay for the next page, which
      // shows them failed and retriable (as after a reload).
      return;
    }
    if (cancelled.length > 0) {
      // Files never sent go back to the selection; nothing is lost.
      const back = cancelled
        .map((id) => ({ id, file: this.#originals.get(id) }))
        .filter((x): x is { id: string; file: File } => x.file !== undefined);
      for (const { id } of back) this.#release(id);
      this.#set({
        uploaded: this.#state.uploaded.filter((f) => !cancelled.includes(f.id)),
        selected: [
          ...back.map(({ id, file }) => ({ key: id.slice(LOCAL_PREFIX.length), file })),
          ...this.#state.selected,
        ],
      });
      this.#alert(
        'destructive',
        `Upload cancelled: ${succeeded} uploaded, ${cancelled.length} not sent (still selected).`,
      );
    } else if (failed === 0) {
      this.#alert('default', `Uploaded ${succeeded} file(s). Processing status is checked automatically.`);
    } else {
      this.log(`Upload finished: ${succeeded} uploaded, ${failed} failed`, 'error');
    }
  }

  /** Retries failed uploads whose original file is still held (SPEC §4). */
  async retry(ids: readonly string[]): Promise<void> {
    if (this.#state.upload.running) return;
    const targets = ids.filter((id) => this.#originals.has(id) && this.#record(id)?.status === 'failed');
    if (targets.length === 0) return;
    const api = this.#opts.getApi();
    if (!api) {
      this.#alert('destructive', 'API key required to upload files');
      return;
    }
    this.#set({
      uploaded: this.#state.uploaded.map((f) =>
        targets.includes(f.id) ? { ...f, status: 'queued', error: undefined } : f,
      ),
    });
    const { succeeded } = await this.#runBatch(api, targets);
    this.#alert(
      succeeded === targets.length ? 'default' : 'destructive',
      messages.retried(succeeded, targets.length),
    );
  }

  retryAllFailed(): Promise<void> {
    return this.retry(this.#state.retriable);
  }

  cancelUpload(): void {
    this.#uploadAbort?.abort();
  }

  async #runBatch(
    api: ProviderApi,
    ids: string[],
  ): Promise<{ succeeded: number; failed: number; cancelled: string[] }> {
    const abort = new AbortController();
    this.#uploadAbort = abort;
    const life = this.#lifeAbort?.signal;
    const onLifeEnd = () => abort.abort();
    life?.addEventListener('abort', onLifeEnd, { once: true });
    this.#set({ upload: { running: true, total: ids.length, finished: 0 } });
    const queue = [...ids];
    let succeeded = 0;
    let failed = 0;
    const lane = async () => {
      let first = true;
      while (queue.length > 0 && !abort.signal.aborted) {
        if (!first) {
          try {
            await sleep(this.#opts.gapMs, abort.signal);
          } catch {
            return;
          }
        }
        first = false;
        const id = queue.shift();
        if (id === undefined) return;
        const outcome = await this.#uploadOne(api, id, abort.signal);
        if (outcome === 'cancelled') {
          queue.unshift(id);
          return;
        }
        if (outcome === 'ok') succeeded++;
        else failed++;
        const u = this.#state.upload;
        this.#set({ upload: { ...u, finished: u.finished + 1 } });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#opts.concurrency, ids.length) }, lane));
    life?.removeEventListener('abort', onLifeEnd);
    if (this.#uploadAbort === abort) this.#uploadAbort = null;
    this.#set({ upload: { ...this.#state.upload, running: false } });
    this.#syncRetriable();
    // Queued records never sent: new uploads go back to the selection, retries stay failed.
    const cancelled = queue.filter((id) => id.startsWith(LOCAL_PREFIX));
    const failedRetries = queue.filter((id) => !id.startsWith(LOCAL_PREFIX));
    if (failedRetries.length > 0)
      this.#set({
        uploaded: this.#state.uploaded.map((f) =>
          failedRetries.includes(f.id) ? { ...f, status: 'failed', error: 'Upload cancelled' } : f,
        ),
      });
    return { succeeded, failed, cancelled };
  }

  async #uploadOne(
    api: ProviderApi,
    id: string,
    signal: AbortSignal,
  ): Promise<'ok' | 'failed' | 'cancelled'> {
    const file = this.#originals.get(id);
    const record = this.#record(id);
    if (!file || !record) return 'failed';
    this.#patchRecord(id, { status: 'uploading', error: undefined }, 10);
    try {
      const result = await this.#withRetries(
        (attemptSignal) => api.uploadFile(file, file.name, { signal: attemptSignal }),
        signal,
        `Upload of ${file.name}`,
      );
      const status = result.status || 'processing';
      const uploaded: UploadedFileRecord = {
        id: result.id,
        name: result.name || file.name,
        bytes: typeof result.bytes === 'number' ? result.bytes : file.size,
        mimetype: result.mimetype || mimeTypeFor(file.name),
        status,
        createdAt: result.createdAt || record.createdAt,
        url: result.url ?? '',
      };
      // The original stays held until the provider has processed the file, so a processing failure
      // can be retried too.
      this.#release(id);
      if (status !== 'done') this.#hold(uploaded.id, file);
      if (!isLocalOnlyId(id)) {
        // A retry of a file the provider failed to process: the failed copy is not needed any more.
        void api.deleteFile(id).then(
          () => this.log(`Deleted the failed copy of ${uploaded.name} (${id})`),
          () => this.log(`Could not delete the failed copy of ${uploaded.name} (${id})`, 'error'),
        );
        this.#tracked.delete(id);
      }
      const progress = { ...this.#state.progress, [uploaded.id]: progressOf(status) };
      delete progress[id];
      this.#set({
        uploaded: this.#state.uploaded.map((f) => (f.id === id ? uploaded : f)),
        progress,
        checked: this.#state.checked.filter((c) => c !== id),
      });
      this.#announce(`${uploaded.name} uploaded (${uploaded.id}), ${status}`);
      if (!TERMINAL.has(status)) this.#track(uploaded.id);
      return 'ok';
    } catch (error) {
      if (isAbortError(error)) {
        if (id.startsWith(LOCAL_PREFIX)) {
          this.#patchRecord(id, { status: 'queued' }, 0);
        } else {
          this.#patchRecord(id, { status: 'failed', error: 'Upload cancelled' }, 100);
        }
        return 'cancelled';
      }
      const message = this.#describe(error, (s, t, b) =>
        s === 415 || (s === 400 && /type|format|unsupported/i.test(b))
          ? messages.unsupportedFileType
          : messages.uploadFailed(s, t, b),
      );
      const failedId = id.startsWith(LOCAL_PREFIX) ? `${FAILED_PREFIX}${id.slice(LOCAL_PREFIX.length)}` : id;
      if (failedId !== id) {
        this.#release(id);
        this.#hold(failedId, file);
      }
      const progress = { ...this.#state.progress, [failedId]: 100 };
      if (failedId !== id) delete progress[id];
      this.#set({
        uploaded: this.#state.uploaded.map((f) =>
          f.id === id ? { ...f, id: failedId, status: 'failed', error: message } : f,
        ),
        progress,
      });
      this.#alert('destructive', message);
      this.#announce(`${file.name} failed to upload`);
      return 'failed';
    }
  }

  /** GET /file, tried again after 429, 5xx or a network failure (reading is always safe to repeat). */
  #listFiles(api: ProviderApi): Promise<ProviderFile[]> {
    return this.#withRetries(
      (signal) => api.listFiles({ signal }),
      new AbortController().signal,
      'Loading files',
    );
  }

  /** Runs `fn` again after 408, 429, 5xx or a network failure, honouring Retry-After. */
  async #withRetries<T>(
    fn: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal,
    what: string,
  ): Promise<T> {
    // Rate limits and failures have separate budgets: a 429 is the provider pacing us, so it gets
    // more patience, and it must not use up the retries meant for a 5xx.
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      if (signal.aborted) throw abortError();
      try {
        return await fn(signal);
      } catch (error) {
        if (isAbortError(error) || signal.aborted) throw abortError();
        const retryable =
          isProviderNetworkError(error) || (isProviderHttpError(error) && isRetryableStatus(error.status));
        if (!retryable) throw error;
        const is429 = isProviderHttpError(error) && error.status === 429;
        const used = is429 ? rateLimited++ : failures++;
        if (used >= (is429 ? RATE_LIMIT_RETRIES : this.#opts.maxRetries)) throw error;
        const wait = retryDelay(used, isProviderHttpError(error) ? error.retryAfterMs : null);
        const why = isProviderHttpError(error) ? `${error.status} ${error.statusText}` : 'a network error';
        this.log(`${what} got ${why}; retrying in ${(wait / 1000).toFixed(1)} s`, 'error');
        await sleep(wait, signal);
      }
    }
  }

  #record(id: string): UploadedFileRecord | undefined {
    return this.#state.uploaded.find((f) => f.id === id);
  }

  #patchRecord(id: string, patch: Partial<UploadedFileRecord>, progress?: number): void {
    this.#set({
      // Progress alone leaves the records (and local storage) untouched.
      ...(Object.keys(patch).length === 0
        ? {}
        : { uploaded: this.#state.uploaded.map((f) => (f.id === id ? { ...f, ...patch } : f)) }),
      ...(progress === undefined ? {} : { progress: { ...this.#state.progress, [id]: progress } }),
    });
  }

  /** A file reached done or failed: a done file's original is no longer needed. */
  #settle(id: string, status: string): void {
    if (status === 'done' && this.#originals.has(id)) this.#release(id);
    this.#syncRetriable();
  }

  #syncRetriable(): void {
    const retriable = this.#state.uploaded
      .filter((f) => f.status === 'failed' && this.#originals.has(f.id))
      .map((f) => f.id);
    this.#set({ retriable });
  }

  // ---- status polling: one loop for every processing file -------------------------------------

  #track(id: string): void {
    const now = this.#opts.now();
    if (!this.#tracked.has(id))
      this.#tracked.set(id, { attempt: 0, startedAt: now, nextAt: now + pollDelay(0) });
    this.#wake?.();
    void this.#pollLoop();
  }

  async #pollLoop(): Promise<void> {
    if (this.#polling || !this.#lifeAbort) return;
    const life = this.#lifeAbort.signal;
    this.#polling = true;
    try {
      while (this.#tracked.size > 0 && !life.aborted) {
        const nextAt = Math.min(...[...this.#tracked.values()].map((t) => t.nextAt));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, nextAt - this.#opts.now()));
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.#wake = done;
        });
        this.#wake = null;
        if (life.aborted) break;
        const now = this.#opts.now();
        for (const [id, t] of [...this.#tracked]) {
          if (t.nextAt > now || life.aborted) continue;
          await this.#checkStatus(id, t);
        }
      }
    } finally {
      this.#polling = false;
      // A loop ended by an old activation's abort may leave files a newer activation tracked while
      // it was still finishing a check: poll those now rather than never.
      const current = this.#lifeAbort;
      if (current && !current.signal.aborted && this.#tracked.size > 0) void this.#pollLoop();
    }
  }

  async #checkStatus(id: string, t: Tracked): Promise<void> {
    const api = this.#opts.getApi();
    const record = this.#record(id);
    if (!record) {
      this.#tracked.delete(id);
      return;
    }
    if (api) {
      try {
        const file = await api.getFile(id);
        const status = file.status || 'processing';
        if (status !== record.status) {
          this.#patchRecord(id, { status }, progressOf(status));
          if (TERMINAL.has(status)) this.#announce(`${record.name} is ${status}`);
        }
        if (TERMINAL.has(status)) {
          this.#tracked.delete(id);
          this.#settle(id, status);
          return;
        }
      } catch (error) {
        if (isProviderHttpError(error) && error.status === 429) {
          this.log(`Status check of ${record.name} rate limited; skipped`, 'error');
        } else if (isProviderHttpError(error) && error.status === 404) {
          this.#patchRecord(id, { status: 'failed', error: 'The provider no longer has this file' }, 100);
          this.#settle(id, 'failed');
          this.#announce(`${record.name} is failed`);
          this.#tracked.delete(id);
          return;
        } else {
          this.log(
            `Status check of ${record.name} failed: ${this.#describe(error, (s, st) => `${s} ${st}`)}`,
            'error',
          );
        }
      }
    }
    t.attempt += 1;
    const now = this.#opts.now();
    if (t.attempt >= POLL_MAX_ATTEMPTS || now - t.startedAt >= POLL_OVERALL_TIMEOUT_MS) {
      this.#tracked.delete(id);
      this.log(
        `Stopped checking ${record.name} after ${t.attempt} attempts; use Refresh to check again`,
        'error',
      );
      return;
    }
    this.#patchRecord(id, {}, Math.min(95, 50 + Math.round((t.attempt / POLL_MAX_ATTEMPTS) * 45)));
    t.nextAt = now + pollDelay(t.attempt);
  }

  // ---- loading --------------------------------------------------------------------------------

  /** Adds the provider's existing files to the uploaded list (skipping those already there). */
  async loadExisting(): Promise<void> {
    const api = this.#opts.getApi();
    if (!api) return this.#alert('destructive', messages.keyRequiredToLoadExisting);
    try {
      const files = await this.#listFiles(api);
      const known = new Set(this.#state.uploaded.map((f) => f.id));
      const added = files.filter((f) => !known.has(f.id)).map(toRecord);
      this.#set({
        uploaded: [...this.#state.uploaded, ...added],
        progress: {
          ...this.#state.progress,
          ...Object.fromEntries(added.map((f) => [f.id, progressOf(f.status)])),
        },
      });
      for (const f of added) if (!TERMINAL.has(f.status)) this.#track(f.id);
      this.#alert('default', `Loaded ${added.length} existing file(s) from the provider.`);
    } catch (error) {
      this.#alert(
        'destructive',
        this.#describe(error, (s, t) => messages.loadFailed(s, t)),
      );
    }
  }

  /** Reloads the statuses of the uploaded files from the provider's list. */
  async refresh(): Promise<void> {
    const api = this.#opts.getApi();
    if (!api) return this.#alert('destructive', messages.keyRequiredToLoadFiles);
    try {
      const files = new Map((await this.#listFiles(api)).map((f) => [f.id, f]));
      const progress = { ...this.#state.progress };
      const uploaded = this.#state.uploaded.map((f) => {
        const fresh = files.get(f.id);
        if (!fresh) return f;
        progress[f.id] = progressOf(fresh.status);
        return { ...f, status: fresh.status || f.status };
      });
      this.#set({ uploaded, progress });
      for (const f of uploaded) {
        if (TERMINAL.has(f.status)) this.#settle(f.id, f.status);
        else if (!isLocalOnlyId(f.id)) this.#track(f.id);
      }
      this.log(`Refreshed ${files.size} file(s) from the provider`);
    } catch (error) {
      this.#alert(
        'destructive',
        this.#describe(error, (s, t) => messages.loadFailed(s, t)),
      );
    }
  }

  // ---- delete ---------------------------------------------------------------------------------

  toggleChecked(id: string, checked: boolean): void {
    const rest = this.#state.checked.filter((c) => c !== id);
    this.#set({ checked: checked ? [...rest, id] : rest });
  }

  setAllChecked(checked: boolean): void {
    this.#set({ checked: checked ? this.#deletableIds() : [] });
  }

  #deletableIds(): string[] {
    return this.#state.uploaded.filter((f) => !f.id.startsWith(LOCAL_PREFIX)).map((f) => f.id);
  }

  deleteChecked(): Promise<void> {
    return this.delete(this.#state.checked);
  }

  /**
   * Deletes files one by one, 500 ms apart, waiting 2 s after a 429 before trying that file again
   * (SPEC §9). 'failed-' records exist only here and are removed without a request.
   */
  async delete(ids: readonly string[]): Promise<void> {
    const targets = ids.filter((id) => !id.startsWith(LOCAL_PREFIX) && this.#record(id));
    if (this.#state.deleting || targets.length === 0) return;
    const api = this.#opts.getApi();
    if (!api && targets.some((id) => !id.startsWith(FAILED_PREFIX))) {
      this.#alert('destructive', messages.keyRequiredToLoadFiles);
      return;
    }
    this.#set({ deleting: true });
    let deleted = 0;
    let failed = 0;
    let sentBefore = false;
    for (const id of targets) {
      const record = this.#record(id);
      if (!record) continue;
      if (id.startsWith(FAILED_PREFIX) || !api) {
        this.#remove(id);
        deleted++;
        this.log(`Removed ${record.name} from the list`);
        continue;
      }
      if (sentBefore) await sleep(DELETE_GAP_MS);
      sentBefore = true;
      for (let rateLimited = 0; ; rateLimited++) {
        try {
          await api.deleteFile(id);
          this.#remove(id);
          deleted++;
          this.log(`Deleted ${record.name} (${id})`);
          break;
        } catch (error) {
          if (isProviderHttpError(error) && error.status === 429 && rateLimited < 3) {
            this.log(`Delete of ${record.name} rate limited; waiting 2 s`, 'error');
            await sleep(DELETE_RATE_LIMIT_WAIT_MS);
            continue;
          }
          if (isProviderHttpError(error) && error.status === 404) {
            this.#remove(id);
            deleted++;
            this.log(`${record.name} was already gone from the provider`);
            break;
          }
          failed++;
          const status = isProviderHttpError(error) ? error.status : 0;
          this.log(`${messages.deleteFailed(status)} (${record.name})`, 'error');
          if (targets.length === 1) this.#alert('destructive', messages.deleteFailed(status));
          break;
        }
      }
    }
    this.#set({ deleting: false });
    if (failed === 0) this.#alert('default', messages.deletedAll(deleted));
    else if (targets.length > 1) this.#alert('destructive', messages.deletedSome(deleted, failed));
  }

  #remove(id: string): void {
    if (this.#originals.has(id)) this.#release(id);
    this.#tracked.delete(id);
    const progress = { ...this.#state.progress };
    delete progress[id];
    this.#set({
      uploaded: this.#state.uploaded.filter((f) => f.id !== id),
      checked: this.#state.checked.filter((c) => c !== id),
      retriable: this.#state.retriable.filter((c) => c !== id),
      progress,
    });
  }

  // ---- knowledge base -------------------------------------------------------------------------

  /**
   * Creates the query tool from the done files, then attaches it to the assistant keeping the
   * assistant's model and tools: read, add the id to model.toolIds once, send the whole model back.
   */
  async createKnowledgeBase(input: KnowledgeBaseInput): Promise<CreatedKnowledgeBase | null> {
    if (this.#state.creating) return null;
    const api = this.#opts.getApi();
    if (!api || !input.assistantId) {
      this.#alert('destructive', messages.keyAndAssistantRequired);
      return null;
    }
    const files = this.#state.uploaded.filter((f) => f.status === 'done' && !isLocalOnlyId(f.id));
    if (files.length === 0) {
      this.#alert('destructive', messages.noFilesForKnowledgeBase);
      return null;
    }
    const name = input.name.trim() || DEFAULT_KB_NAME;
    const description = input.description.trim() || DEFAULT_KB_DESCRIPTION;
    const functionName = toFunctionName(name);
    const fileIds = files.map((f) => f.id);
    this.#set({ creating: true });
    try {
      this.log(`Creating query tool ${functionName} from ${fileIds.length} file(s)`);
      let toolId: string;
      try {
        const knowledgeBases = [{ provider: 'google' as const, name, description, fileIds }];
        try {
          toolId = (
            await api.createQueryTool({ type: 'query', function: { name: functionName }, knowledgeBases })
          ).id;
        } catch (error) {
          // The docs send function.name but the current API spec has no such field (PROVIDER-FACTS):
          // when the provider refuses that property, create the tool without it.
          if (!(isProviderHttpError(error) && error.status === 400 && /function/i.test(error.body)))
            throw error;
          this.log('The provider refused the tool function name; creating the tool without it', 'error');
          toolId = (await api.createQueryTool({ type: 'query', knowledgeBases })).id;
        }
      } catch (error) {
        this.#alert('destructive', this.#failure(error, messages.toolCreationFailed));
        return null;
      }
      this.log(`Created query tool ${toolId}`);
      let assistantName = input.assistantName ?? input.assistantId;
      try {
        const assistant = await api.getAssistant(input.assistantId);
        assistantName = assistant.name || assistantName;
        const model = assistant.model ?? {};
        const existing = Array.isArray(model.toolIds) ? model.toolIds : [];
        const toolIds = existing.includes(toolId) ? existing : [...existing, toolId];
        await api.updateAssistant(input.assistantId, { model: { ...model, toolIds } });
      } catch (error) {
        this.log(`Query tool ${toolId} was created but is not attached to the assistant`, 'error');
        this.#alert('destructive', this.#failure(error, messages.assistantUpdateFailed));
        return null;
      }
      const kb: CreatedKnowledgeBase = {
        toolId,
        name,
        description,
        functionName,
        assistantId: input.assistantId,
        assistantName,
        fileIds,
        createdAt: new Date(this.#opts.now()).toISOString(),
      };
      this.#set({ knowledgeBases: [kb, ...this.#state.knowledgeBases] });
      this.#alert(
        'default',
        `Knowledge base "${name}" created with ${fileIds.length} file(s) and attached to ${assistantName}.`,
      );
      return kb;
    } finally {
      this.#set({ creating: false });
    }
  }

  #failure(error: unknown, message: (statusText: string) => string): string {
    if (isProviderHttpError(error)) return message(error.statusText);
    if (isProviderNetworkError(error)) return message('Network error');
    return message(error instanceof Error ? error.message : 'Error');
  }
}

function toRecord(f: ProviderFile): UploadedFileRecord {
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

/** Per-file progress by status: queued 0, uploading 10, processing 50, done/failed 100. */
function progressOf(status: string): number {
  if (status === 'done' || status === 'failed') return 100;
  if (status === 'uploading') return 10;
  if (status === 'queued') return 0;
  return 50;
}
