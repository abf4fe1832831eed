import { describe, expect, it } from 'vitest';
import { createLimiter, retryAfterSeconds, storedKey } from './limiter.js';
import { limitStoreContract } from './store-contract.js';
import { memoryLimitStore } from './store.js';

describe('the memory store', () => {
  limitStoreContract(() => memoryLimitStore());

  it('keeps at most maxKeys, dropping full buckets before live ones', async () => {
    let t = 0;
    const store = memoryLimitStore({ maxKeys: 3 });
    const slow = createLimiter('slow', { burst: 1, perWindow: 1, windowMs: 60_000 }, { store, now: () => t });
    const fast = createLimiter('fast', { burst: 1, perWindow: 1, windowMs: 10 }, { store, now: () => t });
    await slow.take('victim'); // empty until t = 60 s: the oldest key, but a live one
    await fast.take('a'); // full again after 10 ms
    t = 100;
    for (const key of ['b', 'c']) await slow.take(key);
    // Four keys: 'a' (full, the same as forgotten) goes, not the least recently hit 'victim'.
    expect((await slow.take('victim')).allowed).toBe(false);
  });

  it('stores a long key as its hash, apart from any short key, and refuses a spec that is no limit', () => {
    const long = 'x'.repeat(200);
    expect(storedKey('n', long)).toMatch(/^n#[\w-]{43}$/);
    expect(storedKey('n', 'a@example.com')).toBe('n:a@example.com');
    const store = memoryLimitStore();
    expect(() => createLimiter('zero', { burst: 0, perWindow: 1, windowMs: 1 }, { store })).toThrow(/burst/);
  });

  it('is no limit when the spec is null', async () => {
    const off = createLimiter('off', null, { store: memoryLimitStore() });
    const results = await Promise.all(Array.from({ length: 100 }, () => off.take('k')));
    expect(results.every((r) => r.allowed)).toBe(true);
  });

  it('rounds Retry-After up to whole seconds, at least one', () => {
    expect(retryAfterSeconds({ allowed: false, retryAfterMs: 1 })).toBe(1);
    expect(retryAfterSeconds({ allowed: false, retryAfterMs: 2001 })).toBe(3);
    expect(retryAfterSeconds({ allowed: true, retryAfterMs: 0 })).toBe(1);
  });
});
