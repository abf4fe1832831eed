import type { ProviderApi, ProviderFile } from '../api/provider-api';
import { AdaptiveLimit } from './adaptive-limit';
import { UPLOAD_CONCURRENCY } from './constants';
import { mimeTypeFor } from './file-types';
import { messages } from './messages';
import type { OriginalsHolder } from './originals';
import { FAILED_PREFIX, LOCAL_PREFIX, TERMINAL, isInFlightId, isLocalOnlyId, progressOf } from './reducer';
import type { StatusPoller } from './status-poller';
import type { UploadedFileRecord } from './storage';
import { describeError, providerReason, type KbImportStore } from './store';
import { runUploadQueue } from './upload-queue';

export interface UploadRunnerOptions {
  store: KbImportStore;
  originals: OriginalsHolder;
  poller: StatusPoller;
  concurrency: number;
  maxConcurrency: number;
  gapMs: number;
  maxRetries: number;
  now: () => number;
  providerName: string;
}

export interface BatchResult {
  succeeded: number;
  failed: number;
  /** The id each record has after the batch (a failed new upload becomes `failed-…`). */
  sentIds: Map<string, string>;
  /** New uploads never sent (cancelled): they go back to the selection. */
  cancelled: string[];
}

/** Turns records into uploads through the queue, keeping records, originals and polling in step. */
export class UploadRunner {
  readonly #o: UploadRunnerOptions;
  #abort: AbortController | null = null;

  constructor(options: UploadRunnerOptions) {
    this.#o = options;
  }

  /** Uploads every selected file through the adaptive queue; unsent ones go back to the selection. */
  async uploadSelection(api: ProviderApi | null, life: AbortSignal | undefined): Promise<void> {
    const store = this.#o.store;
    const state = this.#o.store.getState();
    if (state.upload.running || state.selected.length === 0) return;
    if (!api) return store.alert('destructive', 'API key required to upload files');
    const createdAt = new Date(this.#o.now()).toISOString();
    const records: UploadedFileRecord[] = state.selected.map(({ key, file }) => {
      const id = `${LOCAL_PREFIX}${key}`;
      this.#o.originals.hold(id, file);
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
    const { succeeded, failed, cancelled } = await this.run(
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
        const file = this.#o.originals.get(id);
        this.#o.originals.release(id);
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

  /**
   * Retries failed uploads whose original file is still held. A file the provider failed
   * to process is not sent again unchanged: the same bytes would fail the same way, and calling the
   * new upload a success would be untrue (it is retried once its original is replaced).
   */
  async retry(api: ProviderApi | null, ids: readonly string[], life: AbortSignal | undefined): Promise<void> {
    const store = this.#o.store;
    if (this.#o.store.getState().upload.running) return;
    const failed = ids.filter((id) => this.#o.originals.has(id) && store.record(id)?.status === 'failed');
    const unchanged = failed.filter((id) => store.record(id)?.failure === 'processing');
    const targets = failed.filter((id) => !unchanged.includes(id));
    if (unchanged.length > 0 && targets.length === 0) {
      const name = store.record(unchanged[0] ?? '')?.name ?? '';
      const why = messages.unchangedContent(this.#o.providerName);
      return store.alert(
        'destructive',
        unchanged.length === 1
          ? messages.notRetried(name, why)
          : `${unchanged.length} files were not retried: ${why}`,
      );
    }
    if (targets.length === 0) return;
    if (!api) return store.alert('destructive', 'API key required to upload files');
    store.dispatch({
      type: 'patchRecords',
      ids: targets,
      patch: { status: 'queued', error: undefined, failure: undefined },
    });
    const { succeeded, sentIds } = await this.run(api, targets, life);
    if (succeeded > 0) {
      store.alert(
        succeeded === targets.length ? 'default' : 'destructive',
        messages.retried(succeeded, targets.length),
      );
      return;
    }
    // Nothing went through: say why rather than 'Successfully retried 0 of n files'.
    const only = targets.length === 1 ? store.record(sentIds.get(targets[0] ?? '') ?? '') : undefined;
    store.alert(
      'destructive',
      only?.error
        ? `Retry of ${only.name} failed: ${only.error}`
        : `Retry failed for all ${targets.length} files; each shows why in the list.`,
    );
  }

  cancel(): void {
    this.#abort?.abort();
  }

  async run(api: ProviderApi, ids: string[], life: AbortSignal | undefined): Promise<BatchResult> {
    const { store } = this.#o;
    const abort = new AbortController();
    this.#abort = abort;
    const onLifeEnd = () => abort.abort();
    life?.addEventListener('abort', onLifeEnd, { once: true });
    store.dispatch({ type: 'flags', flags: { upload: { running: true, total: ids.length, finished: 0 } } });
    let succeeded = 0;
    let failed = 0;
    const sentIds = new Map<string, string>();
    const limit = new AdaptiveLimit({ initial: this.#o.concurrency, max: this.#o.maxConcurrency });
    const unsent = await runUploadQueue(ids, {
      signal: abort.signal,
      limit,
      gapMs: this.#o.gapMs,
      maxRetries: this.#o.maxRetries,
      run: (id, signal) => {
        const file = this.#o.originals.get(id);
        if (!file) return Promise.reject(new Error('The original file is no longer held'));
        return api.uploadFile(file, file.name, { signal });
      },
      onStart: (id) =>
        store.dispatch({
          type: 'patchRecords',
          ids: [id],
          patch: { status: 'uploading', error: undefined },
          progress: 10,
        }),
      onRetry: (id, why, wait) =>
        store.log(
          `Upload of ${store.record(id)?.name ?? id} got ${why}; retrying in ${(wait / 1000).toFixed(1)} s`,
          'error',
        ),
      onDone: (id, result) => {
        sentIds.set(id, result.id);
        this.#uploaded(api, id, result);
        succeeded++;
        store.dispatch({ type: 'uploadFinishedOne' });
      },
      onFail: (id, error) => {
        sentIds.set(id, this.#failed(id, error));
        failed++;
        store.dispatch({ type: 'uploadFinishedOne' });
      },
    });
    life?.removeEventListener('abort', onLifeEnd);
    if (this.#abort === abort) this.#abort = null;
    store.dispatch({ type: 'flags', flags: { upload: { ...store.getState().upload, running: false } } });
    // Unsent records: new uploads go back to queued (the caller returns them to the selection),
    // retries stay failed.
    const cancelled = unsent.filter(isInFlightId);
    if (cancelled.length > 0)
      store.dispatch({ type: 'patchRecords', ids: cancelled, patch: { status: 'queued' }, progress: 0 });
    const failedRetries = unsent.filter((id) => !isInFlightId(id));
    if (failedRetries.length > 0)
      store.dispatch({
        type: 'patchRecords',
        ids: failedRetries,
        patch: { status: 'failed', error: 'Upload cancelled', failure: undefined },
        progress: 100,
      });
    this.syncRetriable();
    return { succeeded, failed, cancelled, sentIds };
  }

  syncRetriable(): void {
    const { store, originals } = this.#o;
    const ids = store
      .getState()
      .uploaded.filter((f) => f.status === 'failed' && f.failure !== 'processing' && originals.has(f.id))
      .map((f) => f.id);
    const current = store.getState().retriable;
    if (ids.length !== current.length || ids.some((id, i) => id !== current[i]))
      store.dispatch({ type: 'retriable', ids });
  }

  #uploaded(api: ProviderApi, id: string, result: ProviderFile): void {
    const { store, originals, poller } = this.#o;
    const record = store.record(id);
    const file = originals.get(id);
    if (!record || !file) return;
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
    originals.release(id);
    if (status !== 'done') originals.hold(uploaded.id, file);
    if (!isLocalOnlyId(id)) {
      // A retry of a file the provider failed to process: the failed copy is not needed any more.
      void api.deleteFile(id).then(
        () => store.log(`Deleted the failed copy of ${uploaded.name} (${id})`),
        () => store.log(`Could not delete the failed copy of ${uploaded.name} (${id})`, 'error'),
      );
      poller.untrack(id);
    }
    store.dispatch({ type: 'replaceRecord', id, record: uploaded, progress: progressOf(status) });
    store.announce(`${uploaded.name} uploaded (${uploaded.id}), ${status}`);
    if (!TERMINAL.has(status)) poller.track(uploaded.id);
  }

  /** Marks the record failed with the provider's reason; returns its id from now on. */
  #failed(id: string, error: unknown): string {
    const { store, originals } = this.#o;
    const record = store.record(id);
    if (!record) return id;
    const message = describeError(error, (s, t, b) =>
      s === 415 || (s === 400 && /type|format|unsupported/i.test(b))
        ? messages.unsupportedFileType
        : messages.uploadFailed(s, t, providerReason(b)),
    );
    const failedId = isInFlightId(id) ? `${FAILED_PREFIX}${id.slice(LOCAL_PREFIX.length)}` : id;
    const file = originals.get(id);
    if (failedId !== id && file) {
      originals.release(id);
      originals.hold(failedId, file);
    }
    store.dispatch({
      type: 'replaceRecord',
      id,
      record: { ...record, id: failedId, status: 'failed', error: message, failure: undefined },
      progress: 100,
    });
    store.alert('destructive', message);
    store.announce(`${record.name} failed to upload`);
    return failedId;
  }
}
