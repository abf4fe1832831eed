import { AdaptiveLimit } from './adaptive-limit';
import { FILE_GAP_MS, MAX_RETRIES, RATE_LIMIT_RETRIES } from './constants';
import { retryBudget } from './retries';
import { isAbortError, sleep } from './sleep';

export interface UploadQueueOptions<T, R> {
  /** One attempt at one item; the queue decides about retries. */
  run: (item: T, signal: AbortSignal) => Promise<R>;
  /** Cancels the items not yet finished: in-flight ones are aborted, all come back as `unsent`. */
  signal: AbortSignal;
  limit?: AdaptiveLimit;
  /** A slot waits this long after its upload before taking the next (the 200 ms gap). */
  gapMs?: number;
  maxRetries?: number;
  rateLimitRetries?: number;
  now?: () => number;
  random?: () => number;
  onStart?: (item: T) => void;
  onDone?: (item: T, result: R) => void;
  onFail?: (item: T, error: unknown) => void;
  onRetry?: (item: T, why: string, waitMs: number) => void;
}

/**
 * Runs every item with adaptive concurrency, retries and pacing. 408/5xx and network failures are
 * tried again after backoff (`maxRetries`); a 429 has its own budget and pauses every slot for what
 * Retry-After asks (the provider paces the client, not one request), and halves the limit.
 * Resolves with the items never finished because the signal aborted.
 */
export function runUploadQueue<T, R>(items: readonly T[], options: UploadQueueOptions<T, R>): Promise<T[]> {
  const {
    run,
    signal,
    limit = new AdaptiveLimit(),
    gapMs = FILE_GAP_MS,
    maxRetries = MAX_RETRIES,
    rateLimitRetries = RATE_LIMIT_RETRIES,
    now = Date.now,
    random = Math.random,
  } = options;
  const pending = [...items];
  const unsent: T[] = [];
  let inFlight = 0;
  let pausedUntil = 0;

  const waitForPause = async () => {
    while (now() < pausedUntil) await sleep(pausedUntil - now(), signal);
  };

  const attempt = async (item: T): Promise<void> => {
    const next = retryBudget(maxRetries, rateLimitRetries, random);
    for (;;) {
      try {
        await waitForPause();
        const started = now();
        const result = await run(item, signal);
        limit.succeeded(now() - started, now());
        options.onDone?.(item, result);
        return;
      } catch (error) {
        if (isAbortError(error) || signal.aborted) {
          unsent.push(item);
          return;
        }
        const { retry, rateLimited: is429, wait, why } = next(error);
        if (!retry) {
          if (is429) limit.rateLimited(now());
          options.onFail?.(item, error);
          return;
        }
        options.onRetry?.(item, why, wait);
        try {
          if (is429) {
            limit.rateLimited(now());
            pausedUntil = Math.max(pausedUntil, now() + wait);
          } else await sleep(wait, signal);
        } catch {
          unsent.push(item);
          return;
        }
      }
    }
  };

  return new Promise<T[]>((resolve) => {
    const finish = () => {
      signal.removeEventListener('abort', pump);
      resolve([...unsent, ...pending]);
    };
    function pump() {
      if (signal.aborted) {
        if (inFlight === 0) finish();
        return;
      }
      if (pending.length === 0) {
        if (inFlight === 0) finish();
        return;
      }
      while (pending.length > 0 && inFlight < limit.current) {
        const item = pending.shift() as T;
        inFlight++;
        options.onStart?.(item);
        void attempt(item)
          .then(() => (signal.aborted || pending.length === 0 ? undefined : sleep(gapMs, signal)))
          .catch(() => undefined)
          .finally(() => {
            inFlight--;
            pump();
          });
      }
    }
    signal.addEventListener('abort', pump, { once: true });
    pump();
  });
}
