import type { ProviderApi, ProviderFile } from '../api/provider-api';
import { withRetries } from './api-retries';
import { deleteFiles } from './bulk-delete';
import { FILE_GAP_MS, MAX_RETRIES, MAX_UPLOAD_CONCURRENCY, UPLOAD_CONCURRENCY } from './constants';
import { screenSelection } from './duplicates';
import { mimeTypeFor } from './file-types';
import { formatSize } from './format-size';
import { KnowledgeBaseCreator, type KnowledgeBaseInput } from './knowledge-base-creator';
import { messages } from './messages';
import { memoryOriginals, type OriginalsStore } from './originals';
import { OriginalsHolder } from './originals-holder';
import {
  FAILED_PREFIX,
  LOCAL_PREFIX,
  TERMINAL,
  initialState,
  isLocalOnlyId,
  progressOf,
  toRecord,
  type KbImportState,
  type LogLine,
} from './state';
import { StatusPoller } from './status-poller';
import { KbImportStore, describeError } from './store';
import {
  loadKnowledgeBases,
  loadUploadedFiles,
  type CreatedKnowledgeBase,
  type KeyValueStorage,
  type UploadedFileRecord,
} from './storage';
import { UploadRunner } from './uploads';

export type { AlertState, KbImportState, LogLine, SelectedFile } from './state';
export type { KnowledgeBaseInput } from './knowledge-base-creator';
export { isLocalOnlyId } from './state';

export interface ControllerOptions {
  storage: KeyValueStorage;
  /** The provider's display name, for the duplicate reason. */
  providerName: string;
  /** The API for the current settings, or null while no key is available. */
  getApi: () => ProviderApi | null;
  /** Where originals of failed uploads are kept for retries (default: memory). */
  originals?: OriginalsStore;
  /** Uploads in flight to start with; the queue adapts from there up to `maxConcurrency`. */
  concurrency?: number;
  maxConcurrency?: number;
  gapMs?: number;
  maxRetries?: number;
  now?: () => number;
  newId?: () => string;
}

/**
 * The import tool's actions over its parts: a store (pure reducer + persistence), an upload runner
 * (adaptive queue), a status poller, bulk delete and the knowledge-base creator. No React: the hook
 * subscribes to the store and calls these.
 */
export class KbImportController {
  readonly #store: KbImportStore;
  readonly #originals: OriginalsHolder;
  readonly #poller: StatusPoller;
  readonly #uploads: UploadRunner;
  readonly #kb: KnowledgeBaseCreator;
  readonly #getApi: () => ProviderApi | null;
  readonly #providerName: string;
  readonly #now: () => number;
  readonly #newId: () => string;
  /** Settles once originals kept by an earlier page (IndexedDB) are back in memory. */
  readonly restored: Promise<void>;
  #life: AbortController | null = null;

  constructor(options: ControllerOptions) {
    this.#getApi = options.getApi;
    this.#providerName = options.providerName;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    this.#store = new KbImportStore(
      initialState(loadUploadedFiles(options.storage), loadKnowledgeBases(options.storage)),
      options.storage,
      this.#now,
    );
    const store = this.#store;
    this.#originals = new OriginalsHolder(options.originals ?? memoryOriginals());
    this.#poller = new StatusPoller({
      getApi: this.#getApi,
      now: this.#now,
      nameOf: (id) => store.record(id)?.name,
      log: store.log,
      onStatus: (id, status) => this.#statusSeen(id, status),
      onGone: (id) => {
        const name = store.record(id)?.name ?? id;
        store.dispatch({
          type: 'patchRecords',
          ids: [id],
          patch: { status: 'failed', error: 'The provider no longer has this file' },
          progress: 100,
        });
        this.#settle(id, 'failed');
        store.announce(`${name} is failed`);
      },
      onWaiting: (id, attempt) =>
        store.dispatch({ type: 'progress', id, progress: waitingProgress(attempt) }),
    });
    this.#uploads = new UploadRunner({
      store,
      originals: this.#originals,
      poller: this.#poller,
      concurrency: options.concurrency ?? UPLOAD_CONCURRENCY,
      maxConcurrency: options.maxConcurrency ?? MAX_UPLOAD_CONCURRENCY,
      gapMs: options.gapMs ?? FILE_GAP_MS,
      maxRetries: options.maxRetries ?? MAX_RETRIES,
      now: this.#now,
    });
    this.#kb = new KnowledgeBaseCreator(store, this.#getApi, this.#now);
    this.restored = this.#originals
      .restore(store.getState().uploaded)
      .then(() => this.#uploads.syncRetriable());
  }

  getState = (): KbImportState => this.#store.getState();
  subscribe = (listener: () => void): (() => void) => this.#store.subscribe(listener);

  /** The API for the current settings, or null while no key is available. */
  api(): ProviderApi | null {
    return this.#getApi();
  }

  /** Starts background work (status polling of processing files); returns the stop function. */
  activate(): () => void {
    const life = new AbortController();
    this.#life = life;
    this.#poller.start(life.signal);
    for (const f of this.getState().uploaded)
      if (!TERMINAL.has(f.status) && !isLocalOnlyId(f.id)) this.#poller.track(f.id);
    return () => {
      life.abort();
      if (this.#life === life) this.#life = null;
    };
  }

  log(message: string, level: LogLine['level'] = 'info'): void {
    this.#store.log(message, level);
  }

  dismissAlert(): void {
    this.#store.dispatch({ type: 'alert', alert: null });
  }

  #statusSeen(id: string, status: string): void {
    const record = this.#store.record(id);
    if (!record) return;
    if (status !== record.status) {
      this.#store.dispatch({
        type: 'patchRecords',
        ids: [id],
        patch: { status },
        progress: progressOf(status),
      });
      if (TERMINAL.has(status)) this.#store.announce(`${record.name} is ${status}`);
    }
    if (TERMINAL.has(status)) this.#settle(id, status);
  }

  /** A file reached done or failed: a done file's original is no longer needed. */
  #settle(id: string, status: string): void {
    if (status === 'done') this.#originals.release(id);
    this.#uploads.syncRetriable();
  }

  /** GET /file, tried again after 429, 5xx or a network failure (reading is always safe to repeat). */
  #listFiles(api: ProviderApi): Promise<ProviderFile[]> {
    return withRetries((signal) => api.listFiles({ signal }), {
      what: 'Loading files',
      log: this.#store.log,
    });
  }

  // ---- selection ----------------------------------------------------------------------------

  /** Screens newly chosen files against the allow-list and the duplicate rules, then selects them. */
  async addFiles(files: readonly File[]): Promise<void> {
    if (files.length === 0) return;
    const store = this.#store;
    const api = this.#getApi();
    if (!api) return store.alert('destructive', messages.keyRequiredForDuplicates);
    store.dispatch({ type: 'flags', flags: { screening: true } });
    let providerFiles: ProviderFile[];
    try {
      providerFiles = await this.#listFiles(api);
    } catch (error) {
      store.dispatch({ type: 'flags', flags: { screening: false } });
      return store.alert('destructive', describeError(error, messages.loadFailed));
    }
    const state = this.getState();
    const { accepted, skipped } = screenSelection(
      files.map((file) => ({ name: file.name, size: file.size, file })),
      {
        providerFiles,
        uploaded: state.uploaded.filter((f) => !f.id.startsWith(FAILED_PREFIX)),
        selected: state.selected.map((s) => ({ name: s.file.name, size: s.file.size })),
      },
      this.#providerName,
    );
    const added = accepted.map(({ file }) => ({ key: this.#newId(), file }));
    store.dispatch({ type: 'flags', flags: { screening: false } });
    store.dispatch({ type: 'selected', added });
    for (const a of added) store.log(`Selected ${a.file.name} (${formatSize(a.file.size)})`);
    if (accepted.length === 0) {
      if (skipped.length > 0) store.log(messages.skipped(skipped), 'error');
      store.alert('destructive', messages.noNewFiles);
    } else if (skipped.length > 0) store.alert('destructive', messages.skipped(skipped));
    else this.dismissAlert();
  }

  unselect(key: string): void {
    this.#store.dispatch({ type: 'unselect', key });
  }

  clearSelection(): void {
    this.#store.dispatch({ type: 'clearSelection' });
  }

  // ---- upload -------------------------------------------------------------------------------

  /** Uploads every selected file through the adaptive queue; unsent ones go back to the selection. */
  async upload(): Promise<void> {
    const store = this.#store;
    const state = this.getState();
    if (state.upload.running || state.selected.length === 0) return;
    const api = this.#getApi();
    if (!api) return store.alert('destructive', 'API key required to upload files');
    const createdAt = new Date(this.#now()).toISOString();
    const records: UploadedFileRecord[] = state.selected.map(({ key, file }) => {
      const id = `${LOCAL_PREFIX}${key}`;
      this.#originals.hold(id, file);
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
    store.dispatch({ type: 'queued', records });
    store.log(`Uploading ${records.length} file(s), ${UPLOAD_CONCURRENCY} at a time to start with`);
    const life = this.#life?.signal;
    const { succeeded, failed, cancelled } = await this.#uploads.run(
      api,
      records.map((r) => r.id),
      life,
    );
    // The page went away: the records and their kept originals stay for the next page, which shows
    // them failed and retriable (as after a reload).
    if (cancelled.length > 0 && life?.aborted) return;
    if (cancelled.length > 0) {
      // Files never sent go back to the selection; nothing is lost.
      const back = cancelled.flatMap((id) => {
        const file = this.#originals.get(id);
        this.#originals.release(id);
        return file ? [{ key: id.slice(LOCAL_PREFIX.length), file }] : [];
      });
      store.dispatch({ type: 'unqueued', ids: cancelled, files: back });
      store.alert(
        'destructive',
        `Upload cancelled: ${succeeded} uploaded, ${cancelled.length} not sent (still selected).`,
      );
    } else if (failed === 0) {
      store.alert('default', `Uploaded ${succeeded} file(s). Processing status is checked automatically.`);
    } else {
      store.log(`Upload finished: ${succeeded} uploaded, ${failed} failed`, 'error');
    }
  }

  /** Retries failed uploads whose original file is still held (SPEC §4). */
  async retry(ids: readonly string[]): Promise<void> {
    const store = this.#store;
    if (this.getState().upload.running) return;
    const targets = ids.filter((id) => this.#originals.has(id) && store.record(id)?.status === 'failed');
    if (targets.length === 0) return;
    const api = this.#getApi();
    if (!api) return store.alert('destructive', 'API key required to upload files');
    store.dispatch({ type: 'patchRecords', ids: targets, patch: { status: 'queued', error: undefined } });
    const { succeeded } = await this.#uploads.run(api, targets, this.#life?.signal);
    store.alert(
      succeeded === targets.length ? 'default' : 'destructive',
      messages.retried(succeeded, targets.length),
    );
  }

  retryAllFailed(): Promise<void> {
    return this.retry(this.getState().retriable);
  }

  cancelUpload(): void {
    this.#uploads.cancel();
  }

  // ---- loading --------------------------------------------------------------------------------

  /** Adds the provider's existing files to the uploaded list (skipping those already there). */
  async loadExisting(): Promise<void> {
    const store = this.#store;
    const api = this.#getApi();
    if (!api) return store.alert('destructive', messages.keyRequiredToLoadExisting);
    try {
      const files = await this.#listFiles(api);
      const known = new Set(this.getState().uploaded.map((f) => f.id));
      const added = files.filter((f) => !known.has(f.id)).map(toRecord);
      store.dispatch({ type: 'addRecords', records: added });
      for (const f of added) if (!TERMINAL.has(f.status)) this.#poller.track(f.id);
      store.alert('default', `Loaded ${added.length} existing file(s) from the provider.`);
    } catch (error) {
      store.alert('destructive', describeError(error, messages.loadFailed));
    }
  }

  /** Reloads the statuses of the uploaded files from the provider's list. */
  async refresh(): Promise<void> {
    const store = this.#store;
    const api = this.#getApi();
    if (!api) return store.alert('destructive', messages.keyRequiredToLoadFiles);
    try {
      const files = new Map((await this.#listFiles(api)).map((f) => [f.id, f]));
      for (const f of this.getState().uploaded) {
        const fresh = files.get(f.id);
        if (fresh)
          store.dispatch({
            type: 'patchRecords',
            ids: [f.id],
            patch: { status: fresh.status || f.status },
            progress: progressOf(fresh.status),
          });
      }
      for (const f of this.getState().uploaded) {
        if (TERMINAL.has(f.status)) this.#settle(f.id, f.status);
        else if (!isLocalOnlyId(f.id)) this.#poller.track(f.id);
      }
      store.log(`Refreshed ${files.size} file(s) from the provider`);
    } catch (error) {
      store.alert('destructive', describeError(error, messages.loadFailed));
    }
  }

  // ---- delete ---------------------------------------------------------------------------------

  toggleChecked(id: string, checked: boolean): void {
    const rest = this.getState().checked.filter((c) => c !== id);
    this.#store.dispatch({ type: 'checked', ids: checked ? [...rest, id] : rest });
  }

  setAllChecked(checked: boolean): void {
    const ids = this.getState()
      .uploaded.filter((f) => !f.id.startsWith(LOCAL_PREFIX))
      .map((f) => f.id);
    this.#store.dispatch({ type: 'checked', ids: checked ? ids : [] });
  }

  deleteChecked(): Promise<void> {
    return this.delete(this.getState().checked);
  }

  /** Deletes files with SPEC's pacing (see bulk-delete.ts). */
  async delete(ids: readonly string[]): Promise<void> {
    const store = this.#store;
    const targets = ids.filter((id) => !id.startsWith(LOCAL_PREFIX) && store.record(id));
    if (this.getState().deleting || targets.length === 0) return;
    const api = this.#getApi();
    if (!api && targets.some((id) => !id.startsWith(FAILED_PREFIX)))
      return store.alert('destructive', messages.keyRequiredToLoadFiles);
    store.dispatch({ type: 'flags', flags: { deleting: true } });
    const { deleted, failed, lastStatus } = await deleteFiles({
      api,
      ids: targets,
      nameOf: (id) => store.record(id)?.name,
      log: store.log,
      onRemoved: (id) => {
        this.#originals.release(id);
        this.#poller.untrack(id);
        store.dispatch({ type: 'removeRecord', id });
      },
    });
    store.dispatch({ type: 'flags', flags: { deleting: false } });
    if (failed === 0) store.alert('default', messages.deletedAll(deleted));
    else if (targets.length > 1) store.alert('destructive', messages.deletedSome(deleted, failed));
    else store.alert('destructive', messages.deleteFailed(lastStatus));
  }

  // ---- knowledge base -------------------------------------------------------------------------

  /** Creates a query tool (default) or a v2 knowledge base from the done files and attaches it. */
  createKnowledgeBase(input: KnowledgeBaseInput): Promise<CreatedKnowledgeBase | null> {
    return this.#kb.create(input);
  }
}

/** Progress of a file still processing after `attempt` checks: from 50 towards 95. */
function waitingProgress(attempt: number): number {
  return Math.min(95, 50 + Math.round((attempt / 20) * 45));
}
