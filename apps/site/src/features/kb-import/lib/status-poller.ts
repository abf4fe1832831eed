import { isVapiApiError } from '@engage/vapi-client';
import type { ProviderApi, ProviderFile } from '../api/provider-api';
import { POLL_MAX_ATTEMPTS, POLL_OVERALL_TIMEOUT_MS, pollDelay } from './constants';
import { TERMINAL, type LogLine } from './reducer';
import { describeError } from './store';

export interface StatusPollerOptions {
  getApi: () => ProviderApi | null;
  /** The file's name for logs, or undefined when its record is gone (it is then dropped). */
  nameOf: (id: string) => string | undefined;
  /** A status the provider reported (any: the listener decides what changed). */
  onStatus: (id: string, status: string) => void;
  /** GET /file/{id} answered 404. */
  onGone: (id: string) => void;
  /** A check that found the file still processing: `attempt` checks so far. */
  onWaiting: (id: string, attempt: number) => void;
  log: (message: string, level?: LogLine['level']) => void;
  now?: () => number;
}

interface Tracked {
  attempt: number;
  startedAt: number;
  nextAt: number;
}

/**
 * Follows processing files to done or failed. Each file keeps the schedule as the most it is
 * checked (min(3000 + attempt·1000, 10000) ms, 20 checks, 300 s); a round, when some file is due,
 * reads one listing (`GET /file`) for every tracked file, and checks a file alone (`GET /file/{id}`)
 * only when it is the only one, the listing lacks it, or the listing failed.
 */
export class StatusPoller {
  readonly #o: StatusPollerOptions;
  readonly #now: () => number;
  readonly #tracked = new Map<string, Tracked>();
  #signal: AbortSignal | null = null;
  #running = false;
  #wake: (() => void) | null = null;
  /** Set when the provider refuses listings (4xx): per-file checks from then on. */
  #listingRefused = false;

  constructor(options: StatusPollerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#tracked.size;
  }

  has(id: string): boolean {
    return this.#tracked.has(id);
  }

  /** Polls while `signal` lives (one activation of the tool). */
  start(signal: AbortSignal): void {
    this.#signal = signal;
    signal.addEventListener(
      'abort',
      () => {
        this.#tracked.clear();
        this.#wake?.();
      },
      { once: true },
    );
    void this.#loop();
  }

  track(id: string): void {
    const now = this.#now();
    if (!this.#tracked.has(id))
      this.#tracked.set(id, { attempt: 0, startedAt: now, nextAt: now + pollDelay(0) });
    this.#wake?.();
    void this.#loop();
  }

  untrack(id: string): void {
    this.#tracked.delete(id);
  }

  async #loop(): Promise<void> {
    const signal = this.#signal;
    if (this.#running || !signal || signal.aborted) return;
    this.#running = true;
    try {
      while (this.#tracked.size > 0 && !signal.aborted) {
        const nextAt = Math.min(...[...this.#tracked.values()].map((t) => t.nextAt));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, nextAt - this.#now()));
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.#wake = done;
        });
        this.#wake = null;
        if (signal.aborted) break;
        await this.#round(signal);
      }
    } finally {
      this.#running = false;
      // A loop ended by an old activation's abort may leave files a newer activation tracked while
      // it was still finishing a check: poll those now rather than never.
      const current = this.#signal;
      if (current && !current.aborted && this.#tracked.size > 0) void this.#loop();
    }
  }

  async #round(signal: AbortSignal): Promise<void> {
    const now = this.#now();
    const due = [...this.#tracked].filter(([, t]) => t.nextAt <= now).map(([id]) => id);
    if (due.length === 0) return;
    const api = this.#o.getApi();
    let alone = due;
    if (api && this.#tracked.size >= 2 && !this.#listingRefused) {
      alone = [];
      let listing: Map<string, ProviderFile> | null = null;
      try {
        listing = new Map((await api.listFiles()).map((f) => [f.id, f]));
      } catch (error) {
        if (isVapiApiError(error) && error.status === 429) {
          this.#o.log(`Status check of ${due.length} file(s) rate limited; skipped`, 'error');
          for (const id of due) this.#waiting(id);
          return;
        }
        if (isVapiApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408)
          this.#listingRefused = true;
        this.#o.log(
          `Listing files for status checks failed (${describe(error)}); checking each file`,
          'error',
        );
        alone = due;
      }
      if (listing) {
        // Every tracked file in the listing learns its status; only the due ones count a check.
        for (const id of [...this.#tracked.keys()]) {
          const file = listing.get(id);
          if (!file) {
            if (due.includes(id)) alone.push(id);
            continue;
          }
          const status = file.status || 'processing';
          if (TERMINAL.has(status)) this.#settled(id, status);
          else if (due.includes(id)) {
            this.#o.onStatus(id, status);
            this.#waiting(id);
          }
        }
      }
    }
    for (const id of alone) {
      if (signal.aborted) return;
      if (this.#tracked.has(id)) await this.#checkOne(api, id);
    }
  }

  #settled(id: string, status: string): void {
    this.#tracked.delete(id);
    this.#o.onStatus(id, status);
  }

  async #checkOne(api: ProviderApi | null, id: string): Promise<void> {
    const name = this.#o.nameOf(id);
    if (name === undefined) {
      this.#tracked.delete(id);
      return;
    }
    if (api) {
      try {
        const status = (await api.getFile(id)).status || 'processing';
        if (TERMINAL.has(status)) return this.#settled(id, status);
        this.#o.onStatus(id, status);
      } catch (error) {
        if (isVapiApiError(error) && error.status === 429) {
          this.#o.log(`Status check of ${name} rate limited; skipped`, 'error');
        } else if (isVapiApiError(error) && error.status === 404) {
          this.#tracked.delete(id);
          this.#o.onGone(id);
          return;
        } else {
          this.#o.log(`Status check of ${name} failed: ${describe(error)}`, 'error');
        }
      }
    }
    this.#waiting(id);
  }

  /** One more check of a file still processing: the next one on the schedule, or give up. */
  #waiting(id: string): void {
    const t = this.#tracked.get(id);
    if (!t) return;
    t.attempt += 1;
    const now = this.#now();
    if (t.attempt >= POLL_MAX_ATTEMPTS || now - t.startedAt >= POLL_OVERALL_TIMEOUT_MS) {
      this.#tracked.delete(id);
      this.#o.log(
        `Stopped checking ${this.#o.nameOf(id) ?? id} after ${t.attempt} attempts; use Refresh to check again`,
        'error',
      );
      return;
    }
    this.#o.onWaiting(id, t.attempt);
    t.nextAt = now + pollDelay(t.attempt);
  }
}

function describe(error: unknown): string {
  return describeError(error, (status, statusText) => `${status} ${statusText}`);
}
