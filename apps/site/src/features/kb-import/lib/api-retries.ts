import { isProviderHttpError, isProviderNetworkError } from '../api/provider-api';
import { MAX_RETRIES, RATE_LIMIT_RETRIES } from './constants';
import { isRetryableStatus, retryDelay } from './retry';
import { abortError, isAbortError, sleep } from './sleep';
import type { LogLine } from './state';

export interface WithRetriesOptions {
  what: string;
  log: (message: string, level?: LogLine['level']) => void;
  /** Required: a request or wait that nothing can stop would outlive the page that asked for it. */
  signal: AbortSignal;
  maxRetries?: number;
}

/**
 * Runs `fn` again after 408, 429, 5xx or a network failure, honouring Retry-After. Rate limits and
 * failures have separate budgets: a 429 is the provider pacing us, so it gets more patience, and it
 * must not use up the retries meant for a 5xx. For requests safe to repeat (listings).
 */
export async function withRetries<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  { what, log, signal, maxRetries = MAX_RETRIES }: WithRetriesOptions,
): Promise<T> {
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
      if (used >= (is429 ? RATE_LIMIT_RETRIES : maxRetries)) throw error;
      const wait = retryDelay(used, isProviderHttpError(error) ? error.retryAfterMs : null);
      const why = isProviderHttpError(error) ? `${error.status} ${error.statusText}` : 'a network error';
      log(`${what} got ${why}; retrying in ${(wait / 1000).toFixed(1)} s`, 'error');
      await sleep(wait, signal);
    }
  }
}
