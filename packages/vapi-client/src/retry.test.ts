import { describe, expect, it } from 'vitest';
import { VapiApiError, VapiNetworkError } from './errors.js';
import { isRateLimited, isRetryableError, isRetryableStatus, retryDelay } from './retry.js';

describe('retryable statuses', () => {
  it('retries 408, 429 and 5xx, and nothing the request itself got wrong', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isRetryableStatus(status), `${status}`).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422])
      expect(isRetryableStatus(status), `${status}`).toBe(false);
  });
});

describe('retry delays', () => {
  it('honours what Retry-After asked for, else backs off exponentially with jitter, at most 60 s', () => {
    expect(retryDelay(0, 2_000)).toBe(2000);
    expect(retryDelay(3, 0)).toBe(0);
    expect(retryDelay(0, null, { random: () => 0 })).toBe(1000);
    expect(retryDelay(1, undefined, { random: () => 0 })).toBe(2000);
    expect(retryDelay(2, null, { random: () => 1 })).toBe(5000);
    expect(retryDelay(10, null, { random: () => 0 })).toBe(60_000);
    expect(retryDelay(0, 3_600_000)).toBe(60_000);
  });
});

describe('retryable failures', () => {
  it('are no answer at all, or a retryable status; a 429 is the provider pacing', () => {
    const answer = (status: number) => new VapiApiError({ status, statusText: '', body: undefined });
    expect(isRetryableError(new VapiNetworkError('offline'))).toBe(true);
    expect(isRetryableError(answer(503))).toBe(true);
    expect(isRetryableError(answer(404))).toBe(false);
    expect(isRetryableError(new Error('a bug'))).toBe(false);
    expect(isRateLimited(answer(429))).toBe(true);
    expect(isRateLimited(answer(503))).toBe(false);
  });
});
