import { formatSize } from '@engage/http-contract';
import type { ProviderApi, ProviderFile } from '../api/provider-api';
import { contentProblem, sameContent } from './content-check';
import {
  UNSUPPORTED_REASON,
  duplicateReason,
  fitsSizeLimit,
  screenSelection,
  type SkippedFile,
} from './duplicates';
import { isAllowedFile } from './file-types';
import { messages } from './messages';
import type { OriginalsHolder } from './originals';
import { TERMINAL, isLocalOnlyId, progressOf, toRecord } from './reducer';
import { withRetries } from './retries';
import { isAbortError } from './sleep';
import type { StatusPoller } from './status-poller';
import type { UploadedFileRecord } from './storage';
import { describeError, type KbImportStore } from './store';

export interface ProviderFilesContext {
  store: KbImportStore;
  poller: StatusPoller;
  getApi: () => ProviderApi | null;
  providerName: string;
  newId: () => string;
  /** A file found done or failed. */
  settle: (id: string, status: string) => void;
  originals: OriginalsHolder;
  /** Retries failed records whose originals are held; refreshes which records are retriable. */
  retry: (ids: string[]) => Promise<void>;
  syncRetriable: () => void;
  /** The tool's life: leaving the page aborts listings in flight and their retry waits. */
  signal: () => AbortSignal;
}

/** What the tool does with the provider's file list: duplicate screening, loading, refreshing. */
export class ProviderFiles {
  readonly #c: ProviderFilesContext;

  constructor(context: ProviderFilesContext) {
    this.#c = context;
  }

  /** GET /file, tried again after 429, 5xx or a network failure (reading is always safe to repeat). */
  #listFiles(api: ProviderApi): Promise<ProviderFile[]> {
    return withRetries((signal) => api.listFiles({ signal }), {
      what: 'Loading files',
      log: this.#c.store.log,
      signal: this.#c.signal(),
    });
  }

  /** A listing that failed says why; one stopped because the page left says nothing. */
  #failed(error: unknown): void {
    if (!isAbortError(error)) this.#c.store.alert('destructive', describeError(error, messages.loadFailed));
  }

  /** Screens newly chosen files against the allow-list and the duplicate rules, then selects them. */
  async addFiles(files: readonly File[]): Promise<void> {
    if (files.length === 0) return;
    const store = this.#c.store;
    const api = this.#c.getApi();
    if (!api) return store.alert('destructive', messages.keyRequiredForDuplicates);
    store.dispatch({ type: 'flags', flags: { screening: true } });
    let providerFiles: ProviderFile[];
    try {
      providerFiles = await this.#listFiles(api);
    } catch (error) {
      store.dispatch({ type: 'flags', flags: { screening: false } });
      return this.#failed(error);
    }
    const state = this.#c.store.getState();
    const failed = state.uploaded.filter((f) => f.status === 'failed');
    // A file chosen again under the name of a failed record is that record's retry, not a duplicate.
    const again: { record: UploadedFileRecord; file: File }[] = [];
    const fresh: File[] = [];
    for (const file of files) {
      const record = failed.find((r) => r.name === file.name && !again.some((a) => a.record === r));
      if (record && fitsSizeLimit(file.size) && isAllowedFile(file.name)) again.push({ record, file });
      else fresh.push(file);
    }
    const failedIds = new Set(failed.map((f) => f.id));
    const { accepted, skipped } = screenSelection(
      fresh.map((file) => ({ name: file.name, size: file.size, file })),
      {
        // A copy the provider failed to process is no copy to keep instead.
        providerFiles: providerFiles.filter((f) => f.status !== 'failed' && !failedIds.has(f.id)),
        uploaded: state.uploaded.filter((f) => f.status !== 'failed'),
        selected: state.selected.map((s) => ({ name: s.file.name, size: s.file.size })),
      },
      this.#c.providerName,
    );
    const retryIds = await this.#takeAgain(again, skipped);
    const added = accepted.map(({ file }) => ({ key: this.#c.newId(), file }));
    store.dispatch({ type: 'flags', flags: { screening: false } });
    store.dispatch({ type: 'selected', added });
    for (const a of added) store.log(`Selected ${a.file.name} (${formatSize(a.file.size)})`);
    const onlyDuplicatesOrUnsupported = skipped.every(
      (f) => f.reason === UNSUPPORTED_REASON || f.reason === duplicateReason(this.#c.providerName),
    );
    if (accepted.length === 0 && retryIds.length === 0 && onlyDuplicatesOrUnsupported) {
      if (skipped.length > 0) store.log(messages.skipped(skipped), 'error');
      store.alert('destructive', messages.noNewFiles);
    } else if (skipped.length > 0) store.alert('destructive', messages.skipped(skipped));
    else store.dispatch({ type: 'alert', alert: null });
    if (retryIds.length === 0) return;
    if (store.getState().upload.running) {
      // One upload at a time: the chosen files wait, held and retriable, for the current one to end.
      store.alert(
        'default',
        `${retryIds.length} failed file(s) chosen again: use Retry once the current upload has finished.`,
      );
      return;
    }
    const skippedAlert = skipped.length > 0 ? messages.skipped(skipped) : '';
    await this.#c.retry(retryIds);
    const after = store.getState().alert;
    if (skippedAlert && after && after.message !== skippedAlert)
      store.dispatch({
        type: 'alert',
        alert: { variant: 'destructive', message: `${after.message} ${skippedAlert}` },
      });
  }

  /**
   * Holds each file chosen again as its failed record's original, to be retried; refuses content
   * the provider already failed to process, or that is visibly broken (the reason goes to `skipped`).
   */
  async #takeAgain(
    again: readonly { record: UploadedFileRecord; file: File }[],
    skipped: SkippedFile[],
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const { record, file } of again) {
      if (record.failure === 'processing') {
        const problem = await contentProblem(file);
        const held = this.#c.originals.get(record.id);
        if (problem) {
          skipped.push({ name: file.name, reason: `(${problem})` });
          continue;
        }
        if (held && (await sameContent(held, file))) {
          skipped.push({
            name: file.name,
            reason: `(unchanged since ${this.#c.providerName} could not process it)`,
          });
          continue;
        }
        this.#c.store.dispatch({ type: 'patchRecords', ids: [record.id], patch: { failure: undefined } });
      }
      this.#c.originals.hold(record.id, file);
      this.#c.store.log(`Chose ${file.name} again: retrying its failed upload`);
      ids.push(record.id);
    }
    if (ids.length > 0) this.#c.syncRetriable();
    return ids;
  }

  /**
   * Adds the provider's existing files to the uploaded list (skipping those already there). `quiet`
   * (the tool opening) logs what was loaded rather than announcing it, and asks for no key.
   */
  async loadExisting({ quiet = false } = {}): Promise<void> {
    const store = this.#c.store;
    const api = this.#c.getApi();
    if (!api) return quiet ? undefined : store.alert('destructive', messages.keyRequiredToLoadExisting);
    try {
      const files = await this.#listFiles(api);
      const known = new Set(this.#c.store.getState().uploaded.map((f) => f.id));
      const added = files.filter((f) => !known.has(f.id)).map(toRecord);
      store.dispatch({ type: 'addRecords', records: added });
      for (const f of added) if (!TERMINAL.has(f.status)) this.#c.poller.track(f.id);
      for (const f of added) if (f.status === 'failed') this.#c.settle(f.id, f.status);
      if (quiet) store.log(messages.loadedExisting(files.length, added.length));
      else store.alert('default', messages.loadedExisting(files.length, added.length));
    } catch (error) {
      this.#failed(error);
    }
  }

  /** Reloads the statuses of the uploaded files from the provider's list. */
  async refresh(): Promise<void> {
    const store = this.#c.store;
    const api = this.#c.getApi();
    if (!api) return store.alert('destructive', messages.keyRequiredToLoadFiles);
    try {
      const files = new Map((await this.#listFiles(api)).map((f) => [f.id, f]));
      for (const f of this.#c.store.getState().uploaded) {
        const fresh = files.get(f.id);
        if (fresh)
          store.dispatch({
            type: 'patchRecords',
            ids: [f.id],
            patch: { status: fresh.status || f.status },
            progress: progressOf(fresh.status),
          });
      }
      for (const f of this.#c.store.getState().uploaded) {
        if (TERMINAL.has(f.status)) this.#c.settle(f.id, f.status);
        else if (!isLocalOnlyId(f.id)) this.#c.poller.track(f.id);
      }
      store.log(`Refreshed ${files.size} file(s) from the provider`);
    } catch (error) {
      this.#failed(error);
    }
  }
}
