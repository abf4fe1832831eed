import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryDelay } from './retry';

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
    expect(retryDelay(0, null, () => 0)).toBe(1000);
    expect(retryDelay(1, undefined, () => 0)).toBe(2000);
    expect(retryDelay(2, null, () => 1)).toBe(5000);
    expect(retryDelay(10, null, () => 0)).toBe(60_000);
    expect(retryDelay(0, 3_600_000)).toBe(60_000);
  });
});
