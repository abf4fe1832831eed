import type { ProviderApi } from '../api/provider-api';
import { deleteFiles } from './bulk-delete';
import { deleteReport, messages } from './messages';
import type { OriginalsHolder } from './originals';
import { isInFlightId, isNeverSentId } from './reducer';
import type { StatusPoller } from './status-poller';
import type { KbImportStore } from './store';

export interface FileDeletionContext {
  store: KbImportStore;
  originals: OriginalsHolder;
  poller: StatusPoller;
  getApi: () => ProviderApi | null;
  /** The tool's life: leaving the page stops a delete run part way (see bulk-delete.ts). */
  signal: () => AbortSignal;
}

/** Ticking files for deletion and deleting them (one, or the ticked ones) with the pacing. */
export class FileDeletion {
  readonly #c: FileDeletionContext;

  constructor(context: FileDeletionContext) {
    this.#c = context;
  }

  toggleChecked(id: string, checked: boolean): void {
    const rest = this.#c.store.getState().checked.filter((c) => c !== id);
    this.#c.store.dispatch({ type: 'checked', ids: checked ? [...rest, id] : rest });
  }

  /** Ticks every file that can be deleted (not those still being sent), or none. */
  setAllChecked(checked: boolean): void {
    const ids = this.#c.store
      .getState()
      .uploaded.filter((f) => !isInFlightId(f.id))
      .map((f) => f.id);
    this.#c.store.dispatch({ type: 'checked', ids: checked ? ids : [] });
  }

  async delete(ids: readonly string[]): Promise<void> {
    const { store } = this.#c;
    const targets = ids.filter((id) => !isInFlightId(id) && store.record(id));
    if (store.getState().deleting || targets.length === 0) return;
    const api = this.#c.getApi();
    if (!api && targets.some((id) => !isNeverSentId(id)))
      return store.alert('destructive', messages.keyRequiredToLoadFiles);
    const signal = this.#c.signal();
    store.dispatch({ type: 'flags', flags: { deleting: true } });
    const result = await deleteFiles({
      api,
      ids: targets,
      nameOf: (id) => store.record(id)?.name,
      log: store.log,
      signal,
      onRemoved: (id) => {
        this.#c.originals.release(id);
        this.#c.poller.untrack(id);
        store.dispatch({ type: 'removeRecord', id });
      },
    });
    store.dispatch({ type: 'flags', flags: { deleting: false } });
    if (result.aborted) return;
    const report = deleteReport({ targets: targets.length, ...result });
    store.alert(report.variant, report.message);
  }
}
