import { VapiApiError } from '@engage/vapi-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdaptiveLimit } from './adaptive-limit';
import { runUploadQueue } from './upload-queue';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const http = (status: number, retryAfterMs: number | null = null) =>
  new VapiApiError({ status, statusText: '', body: '', ...(retryAfterMs !== null && { retryAfterMs }) });

describe('runUploadQueue', () => {
  it('grows the number in flight while answers come quickly', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    const run = runUploadQueue(
      Array.from({ length: 60 }, (_, i) => i),
      {
        signal: new AbortController().signal,
        limit: new AdaptiveLimit({ initial: 2, max: 10 }),
        gapMs: 0,
        run: async () => {
          most = Math.max(most, ++inFlight);
          await wait(50);
          inFlight--;
        },
        onDone: (i) => done.push(i),
      },
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await run).toEqual([]);
    expect(done).toHaveLength(60);
    expect(most).toBe(10);
  });

  it('pauses every slot for what Retry-After asks after a 429, and halves the limit', async () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 4 });
    const started: number[] = [];
    let refused = false;
    const run = runUploadQueue([1, 2, 3, 4, 5, 6, 7, 8], {
      signal: new AbortController().signal,
      limit,
      gapMs: 0,
      run: async (i) => {
        started.push(Date.now());
        await wait(10);
        if (i === 1 && !refused) {
          refused = true;
          throw http(429, 2_000);
        }
      },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    const before = started.length;
    await vi.advanceTimersByTimeAsync(900);
    // Nothing new starts during the 2 s pause.
    expect(started.length).toBe(before);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await run).toEqual([]);
    expect(started).toHaveLength(9);
    expect(limit.current).toBeLessThanOrEqual(4);
  });

  it('retries 5xx with backoff up to the budget, then reports the failure', async () => {
    const failures: unknown[] = [];
    const retries: string[] = [];
    let calls = 0;
    const run = runUploadQueue(['a'], {
      signal: new AbortController().signal,
      maxRetries: 2,
      random: () => 0,
      run: async () => {
        calls++;
        throw http(503);
      },
      onRetry: (_, why, waitMs) => retries.push(`${why} ${waitMs}`),
      onFail: (_, error) => failures.push(error),
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await run).toEqual([]);
    expect(calls).toBe(3);
    expect(retries).toEqual(['503 Service Unavailable 1000', '503 Service Unavailable 2000']);
    expect(failures).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    let calls = 0;
    const failed: string[] = [];
    await runUploadQueue(['a'], {
      signal: new AbortController().signal,
      run: async () => {
        calls++;
        throw http(400);
      },
      onFail: (item) => failed.push(item),
    });
    expect(calls).toBe(1);
    expect(failed).toEqual(['a']);
  });

  it('gives back the items not finished when cancelled', async () => {
    const abort = new AbortController();
    const run = runUploadQueue([1, 2, 3, 4, 5], {
      signal: abort.signal,
      limit: new AdaptiveLimit({ initial: 2, max: 2 }),
      gapMs: 0,
      run: (_, signal) =>
        new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, 1_000);
          signal.addEventListener('abort', () => {
            clearTimeout(t);
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    });
    await vi.advanceTimersByTimeAsync(1_500);
    abort.abort();
    expect((await run).sort()).toEqual([3, 4, 5]);
  });
});
