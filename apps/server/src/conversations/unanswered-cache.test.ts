import { describe, expect, it } from 'vitest';
import { cachedScan, UNANSWERED_CACHE_MS } from './unanswered-cache.js';

// The Unanswered tab's scan is kept a minute: the clock is the test's own.

function counting() {
  let scans = 0;
  let release: (value: string) => void = () => undefined;
  return {
    get scans() {
      return scans;
    },
    now: 0,
    /** A scan that answers at once with its number. */
    quick: async () => `scan ${++scans}`,
    /** A scan that answers when released. */
    held: () => {
      scans += 1;
      return new Promise<string>((resolve) => (release = resolve));
    },
    release: (value: string) => release(value),
  };
}

describe('cachedScan', () => {
  it('answers from memory within the minute, and scans again after it', async () => {
    const s = counting();
    const cache = cachedScan<string>({ now: () => s.now });
    expect(await cache.get(s.quick)).toBe('scan 1');
    s.now += UNANSWERED_CACHE_MS - 1;
    expect(await cache.get(s.quick)).toBe('scan 1');
    expect(s.scans).toBe(1);
    s.now += 1;
    expect(await cache.get(s.quick)).toBe('scan 2');
  });

  it('scans again after invalidate (an answer saved, a conversation deleted)', async () => {
    const s = counting();
    const cache = cachedScan<string>({ now: () => s.now });
    await cache.get(s.quick);
    cache.invalidate();
    expect(await cache.get(s.quick)).toBe('scan 2');
  });

  it('shares a running scan, and does not keep one that an invalidate overtook', async () => {
    const s = counting();
    const cache = cachedScan<string>({ now: () => s.now });
    const a = cache.get(s.held);
    const b = cache.get(s.held);
    expect(s.scans).toBe(1);
    cache.invalidate();
    s.release('before the save');
    expect([await a, await b]).toEqual(['before the save', 'before the save']);
    expect(await cache.get(s.quick)).toBe('scan 2');
  });

  it('never keeps a failed scan', async () => {
    const s = counting();
    const cache = cachedScan<string>({ now: () => s.now });
    await expect(cache.get(() => Promise.reject(new Error('provider down')))).rejects.toThrow(
      'provider down',
    );
    expect(await cache.get(s.quick)).toBe('scan 1');
  });
});
