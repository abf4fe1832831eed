import { expect, it } from 'vitest';
import { createLimiter } from './limiter.js';
import type { LimitStore } from './store.js';

/**
 * What every LimitStore must do, as Vitest cases: the memory store runs them here, the server's
 * PostgreSQL store in its own suite, so both keep one behaviour.
 * @example
 * describe('postgres store', () => limitStoreContract(() => postgresLimitStore(db)));
 */
export function limitStoreContract(makeStore: () => LimitStore | Promise<LimitStore>) {
  it('lets a burst through, refuses the next hit with the wait, and refills over the window', async () => {
    let t = 1_000_000;
    const limiter = createLimiter(
      'contract-burst',
      { burst: 3, perWindow: 6, windowMs: 60_000 },
      {
        store: await makeStore(),
        now: () => t,
      },
    );
    const allowed = async (key: string) => (await limiter.take(key)).allowed;
    expect([await allowed('a'), await allowed('a'), await allowed('a')]).toEqual([true, true, true]);
    expect(await limiter.take('a')).toEqual({ allowed: false, retryAfterMs: 10_000 });
    expect(await allowed('b')).toBe(true); // another key has its own bucket
    t += 9_999; // 6 per minute: one every 10 s
    expect(await allowed('a')).toBe(false);
    t += 1;
    expect(await allowed('a')).toBe(true);
    expect(await allowed('a')).toBe(false);
    t += 10 * 60_000; // a long pause refills only up to the burst
    const four = [await allowed('a'), await allowed('a'), await allowed('a'), await allowed('a')];
    expect(four).toEqual([true, true, true, false]);
  });

  it('peeks without taking, and a refund gives one hit back (never more than the burst)', async () => {
    const t = 5_000_000;
    const limiter = createLimiter(
      'contract-peek',
      { burst: 2, perWindow: 2, windowMs: 60_000 },
      {
        store: await makeStore(),
        now: () => t,
      },
    );
    expect((await limiter.peek('k')).allowed).toBe(true);
    await limiter.take('k');
    await limiter.take('k');
    expect(await limiter.peek('k')).toEqual({ allowed: false, retryAfterMs: 30_000 });
    await limiter.refund('k');
    expect((await limiter.peek('k')).allowed).toBe(true);
    await limiter.refund('k');
    await limiter.refund('k'); // past full: nothing more
    await limiter.refund('never-seen');
    const results = [await limiter.take('k'), await limiter.take('k'), await limiter.take('k')];
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
  });

  it('lets exactly the burst through when many hits arrive at once', async () => {
    const limiter = createLimiter(
      'contract-race',
      { burst: 5, perWindow: 5, windowMs: 60_000 },
      {
        store: await makeStore(),
        now: () => 9_000_000,
      },
    );
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.take('same')));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it('keeps limits apart by name, and stores a very long key safely', async () => {
    const store = await makeStore();
    const spec = { burst: 1, perWindow: 1, windowMs: 60_000 };
    // Clocks only move forward across these cases: a database store's sweep of an earlier case may
    // still run, and must find nothing of this one in the past.
    const one = createLimiter('contract-one', spec, { store, now: () => 13_000_000 });
    const two = createLimiter('contract-two', spec, { store, now: () => 13_000_000 });
    const long = `${'x'.repeat(5000)}@example.com`;
    expect((await one.take(long)).allowed).toBe(true);
    expect((await one.take(long)).allowed).toBe(false);
    expect((await two.take(long)).allowed).toBe(true);
  });
}
