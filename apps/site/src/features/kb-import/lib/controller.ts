import type { ProviderApi } from '../api/provider-api';
import { FILE_GAP_MS, MAX_RETRIES, MAX_UPLOAD_CONCURRENCY, UPLOAD_CONCURRENCY } from './constants';
import { contentProblem } from './content-check';
import { FileDeletion } from './file-deletion';
import { KnowledgeBaseCreator, type KnowledgeBaseInput } from './knowledge-base';
import { refreshProviderKnowledge } from './knowledge-in-use';
import { messages } from './messages';
import { memoryOriginals, type OriginalsStore } from './originals';
import { OriginalsHolder } from './originals';
import { ProviderFiles } from './provider-files';
import {
  TERMINAL,
  initialState,
  isLocalOnlyId,
  progressOf,
  waitingProgress,
  type KbImportState,
  type LogLine,
} from './reducer';
import { StatusPoller } from './status-poller';
import {
  loadKnowledgeBases,
  loadUploadedFiles,
  type CreatedKnowledgeBase,
  type KeyValueStorage,
} from './storage';
import { KbImportStore } from './store';
import { UploadRunner } from './uploads';

export type { AlertState, KbImportState, LogLine, SelectedFile } from './reducer';
export type { KnowledgeBaseInput } from './knowledge-base';
export { isLocalOnlyId } from './reducer';

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
  readonly #files: ProviderFiles;
  readonly #deletion: FileDeletion;
  readonly #getApi: () => ProviderApi | null;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #providerName: string;
  /** Settles once originals kept by an earlier page (IndexedDB) are back in memory. */
  readonly restored: Promise<void>;
  /**
   * The tool's life: listings, deletes and uploads stop when it aborts (the page is left). Work
   * started before the first activation belongs to that activation's life.
   */
  #life = new AbortController();
  #opening: Promise<void> | null = null;

  constructor(options: ControllerOptions) {
    this.#getApi = options.getApi;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    this.#providerName = options.providerName;
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
        store.announce(messages.settled(name, 'failed'));
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
      providerName: options.providerName,
    });
    this.#kb = new KnowledgeBaseCreator(store, this.#getApi, this.#now);
    this.#files = new ProviderFiles({
      store,
      poller: this.#poller,
      getApi: this.#getApi,
      providerName: options.providerName,
      newId: this.#newId,
      settle: (id, status) => this.#settle(id, status),
      originals: this.#originals,
      retry: (ids) => this.retry(ids),
      syncRetriable: () => this.#uploads.syncRetriable(),
      signal: () => this.#life.signal,
    });
    this.#deletion = new FileDeletion({
      store,
      originals: this.#originals,
      poller: this.#poller,
      getApi: this.#getApi,
      signal: () => this.#life.signal,
    });
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
    if (this.#life.signal.aborted) this.#life = new AbortController();
    const life = this.#life;
    this.#poller.start(life.signal);
    for (const f of this.getState().uploaded)
      if (!TERMINAL.has(f.status) && !isLocalOnlyId(f.id)) this.#poller.track(f.id);
    return () => life.abort();
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
      if (TERMINAL.has(status)) this.#store.announce(messages.settled(record.name, status));
    }
    if (TERMINAL.has(status)) this.#settle(id, status);
  }

  /** A file reached done or failed: a done file's original is no longer needed. */
  #settle(id: string, status: string): void {
    if (status === 'done') this.#originals.release(id);
    if (status === 'failed') this.#explainProcessingFailure(id);
    this.#uploads.syncRetriable();
  }

  /**
   * The provider failed a file it had taken: its file object says no more, so the reason is looked
   * for in the original (empty, not valid JSON…), and only changed content will be retried.
   */
  #explainProcessingFailure(id: string): void {
    const store = this.#store;
    const record = store.record(id);
    if (!record || record.error || isLocalOnlyId(id)) return;
    const patch = (reason: string | null) =>
      store.dispatch({
        type: 'patchRecords',
        ids: [id],
        patch: { failure: 'processing', error: messages.processingFailed(this.#providerName, reason) },
      });
    patch(null);
    const file = this.#originals.get(id);
    if (!file) return;
    void contentProblem(file).then((reason) => {
      if (reason && store.record(id)?.failure === 'processing') patch(reason);
    });
  }

  // ---- the provider's list: screening, loading, refreshing -----------------------------------

  addFiles(files: readonly File[]): Promise<void> {
    return this.#files.addFiles(files);
  }

  loadExisting(): Promise<void> {
    return this.#files.loadExisting();
  }

  /** On opening (and once a typed key settles): the provider's files, tools and bases, from any browser. */
  open(): Promise<void> {
    // StrictMode runs the hook's effect twice: one load, not two.
    this.#opening ??= Promise.all([this.#files.loadExisting({ quiet: true }), this.loadKnowledge()]).then(
      () => {
        this.#opening = null;
      },
    );
    return this.#opening;
  }

  /** Lists the provider's query tools and v2 knowledge bases with their files (knowledge-in-use.ts). */
  loadKnowledge(): Promise<void> {
    return refreshProviderKnowledge(this.#store, this.#getApi(), this.#life.signal);
  }

  refresh(): Promise<void> {
    return this.#files.refresh();
  }

  unselect(key: string): void {
    this.#store.dispatch({ type: 'unselect', key });
  }

  clearSelection(): void {
    this.#store.dispatch({ type: 'clearSelection' });
  }

  // ---- upload -------------------------------------------------------------------------------

  /** Uploads every selected file through the adaptive queue; unsent ones go back to the selection. */
  upload(): Promise<void> {
    return this.#uploads.uploadSelection(this.#getApi(), this.#life.signal);
  }

  /** Retries failed uploads whose original file is still held. */
  retry(ids: readonly string[]): Promise<void> {
    return this.#uploads.retry(this.#getApi(), ids, this.#life.signal);
  }

  retryAllFailed(): Promise<void> {
    return this.retry(this.getState().retriable);
  }

  cancelUpload(): void {
    this.#uploads.cancel();
  }

  // ---- delete (file-deletion.ts) -------------------------------------------------------------

  toggleChecked(id: string, checked: boolean): void {
    this.#deletion.toggleChecked(id, checked);
  }

  setAllChecked(checked: boolean): void {
    this.#deletion.setAllChecked(checked);
  }

  deleteChecked(): Promise<void> {
    return this.delete(this.getState().checked);
  }

  /** Deletes files with the pacing; leaving the page stops the run (bulk-delete.ts). */
  delete(ids: readonly string[]): Promise<void> {
    return this.#deletion.delete(ids);
  }

  // ---- knowledge base -------------------------------------------------------------------------

  /** Creates a query tool (default) or a v2 knowledge base from the done files and attaches it. */
  createKnowledgeBase(input: KnowledgeBaseInput): Promise<CreatedKnowledgeBase | null> {
    return this.#kb.create(input);
  }
}
