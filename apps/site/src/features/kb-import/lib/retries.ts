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

/** What to do after a failure: retry after `wait` ms, or stop (not retryable, or its budget spent). */
export interface RetryStep {
  retry: boolean;
  /** The provider was pacing us (429): the caller slows down whether or not it retries. */
  rateLimited: boolean;
  wait: number;
  /** The failure in a few words, for the log ("503 Service Unavailable", "a network error"). */
  why: string;
}

/**
 * One request's retries under the product's policy (@engage/vapi-client's retry.ts), with two
 * budgets: a 429 is the provider pacing us, so it gets more patience, and it must not use up the
 * retries meant for a 5xx or a network failure.
 */
export function retryBudget(maxRetries: number, rateLimitRetries: number, random?: () => number) {
  let failures = 0;
  let rateLimited = 0;
  return (error: unknown): RetryStep => {
    const is429 = isRateLimited(error);
    const why = isVapiApiError(error) ? `${error.status} ${error.statusText}` : 'a network error';
    if (!isRetryableError(error)) return { retry: false, rateLimited: is429, wait: 0, why };
    const used = is429 ? rateLimited++ : failures++;
    if (used >= (is429 ? rateLimitRetries : maxRetries))
      return { retry: false, rateLimited: is429, wait: 0, why };
    const wait = retryDelay(used, retryAfterOf(error), random ? { random } : {});
    return { retry: true, rateLimited: is429, wait, why };
  };
}

export interface WithRetriesOptions {
  what: string;
  log: (message: string, level?: LogLine['level']) => void;
  /** Required: a request or wait that nothing can stop would outlive the page that asked for it. */
  signal: AbortSignal;
  maxRetries?: number;
}

/**
 * Runs `fn` again after 408, 429, 5xx or a network failure, honouring Retry-After, within
 * {@link retryBudget}'s two budgets. For requests safe to repeat (listings).
 */
export async function withRetries<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  { what, log, signal, maxRetries = MAX_RETRIES }: WithRetriesOptions,
): Promise<T> {
  const next = retryBudget(maxRetries, RATE_LIMIT_RETRIES);
  for (;;) {
    if (signal.aborted) throw abortError();
    try {
      return await fn(signal);
    } catch (error) {
      if (isAbortError(error) || signal.aborted) throw abortError();
      const step = next(error);
      if (!step.retry) throw error;
      log(`${what} got ${step.why}; retrying in ${(step.wait / 1000).toFixed(1)} s`, 'error');
      await sleep(step.wait, signal);
    }
  }
}
