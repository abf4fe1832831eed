import { describe, expect, it } from 'vitest';
import { POLL_MAX_ATTEMPTS, POLL_OVERALL_TIMEOUT_MS, pollDelay } from './constants';

describe('the polling schedule', () => {
  it('waits min(3000 + attempt*1000, 10000) ms, at most 20 attempts within 300000 ms', () => {
    expect([0, 1, 2, 6, 7, 8, 19].map(pollDelay)).toEqual([3000, 4000, 5000, 9000, 10000, 10000, 10000]);
    expect(POLL_MAX_ATTEMPTS).toBe(20);
    expect(POLL_OVERALL_TIMEOUT_MS).toBe(300_000);
  });
});
