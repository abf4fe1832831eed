import {
  isRateLimited,
  isRetryableError,
  isVapiApiError,
  retryAfterOf,
  retryDelay,
} from '@engage/vapi-client';
import { MAX_RETRIES, RATE_LIMIT_RETRIES } from './constants';
import type { LogLine } from './reducer';
import { abortError, isAbortError, sleep } from './sleep';

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
      if (!isRetryableError(error)) throw error;
      const is429 = isRateLimited(error);
      const used = is429 ? rateLimited++ : failures++;
      if (used >= (is429 ? RATE_LIMIT_RETRIES : maxRetries)) throw error;
      const wait = retryDelay(used, retryAfterOf(error));
      const why = isVapiApiError(error) ? `${error.status} ${error.statusText}` : 'a network error';
      log(`${what} got ${why}; retrying in ${(wait / 1000).toFixed(1)} s`, 'error');
      await sleep(wait, signal);
    }
  }
}
