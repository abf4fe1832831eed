import type { ProviderApi, ProviderFile } from '../api/provider-api';
import { withRetries } from './api-retries';
import { screenSelection } from './duplicates';
import { formatSize } from './format-size';
import { messages } from './messages';
import { FAILED_PREFIX, TERMINAL, isLocalOnlyId, progressOf, toRecord } from './state';
import type { StatusPoller } from './status-poller';
import { describeError, type KbImportStore } from './store';

export interface ProviderFilesContext {
  store: KbImportStore;
  poller: StatusPoller;
  getApi: () => ProviderApi | null;
  providerName: string;
  newId: () => string;
  /** A file found done or failed. */
  settle: (id: string, status: string) => void;
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
    });
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
      return store.alert('destructive', describeError(error, messages.loadFailed));
    }
    const state = this.#c.store.getState();
    const { accepted, skipped } = screenSelection(
      files.map((file) => ({ name: file.name, size: file.size, file })),
      {
        providerFiles,
        uploaded: state.uploaded.filter((f) => !f.id.startsWith(FAILED_PREFIX)),
        selected: state.selected.map((s) => ({ name: s.file.name, size: s.file.size })),
      },
      this.#c.providerName,
    );
    const added = accepted.map(({ file }) => ({ key: this.#c.newId(), file }));
    store.dispatch({ type: 'flags', flags: { screening: false } });
    store.dispatch({ type: 'selected', added });
    for (const a of added) store.log(`Selected ${a.file.name} (${formatSize(a.file.size)})`);
    if (accepted.length === 0) {
      if (skipped.length > 0) store.log(messages.skipped(skipped), 'error');
      store.alert('destructive', messages.noNewFiles);
    } else if (skipped.length > 0) store.alert('destructive', messages.skipped(skipped));
    else store.dispatch({ type: 'alert', alert: null });
  }

  /** Adds the provider's existing files to the uploaded list (skipping those already there). */
  async loadExisting(): Promise<void> {
    const store = this.#c.store;
    const api = this.#c.getApi();
    if (!api) return store.alert('destructive', messages.keyRequiredToLoadExisting);
    try {
      const files = await this.#listFiles(api);
      const known = new Set(this.#c.store.getState().uploaded.map((f) => f.id));
      const added = files.filter((f) => !known.has(f.id)).map(toRecord);
      store.dispatch({ type: 'addRecords', records: added });
      for (const f of added) if (!TERMINAL.has(f.status)) this.#c.poller.track(f.id);
      store.alert('default', `Loaded ${added.length} existing file(s) from the provider.`);
    } catch (error) {
      store.alert('destructive', describeError(error, messages.loadFailed));
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
      store.alert('destructive', describeError(error, messages.loadFailed));
    }
  }
}
