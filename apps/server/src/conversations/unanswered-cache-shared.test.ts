import { describe, expect, it } from 'vitest';
import type { SharedGeneration } from '../db/shared-generation.js';
import { cachedScan } from './unanswered-cache.js';

// The kept scan with a shared counter (several instances on one database): served only while the
// counter stands where it stood when the scan began; when the counter cannot be read, a fresh scan
// is made and nothing kept is served. The counter itself, between two instances on PostgreSQL:
// conversations/unanswered-instances.test.ts.

function counter() {
  let n = 0;
  let failing = false;
  const shared: SharedGeneration = {
    read: async () => {
      if (failing) throw new Error('database unavailable');
      return String(n);
    },
    bump: async () => {
      if (failing) throw new Error('database unavailable');
      n += 1;
    },
  };
  return {
    shared,
    bumpElsewhere: () => void (n += 1),
    fail: (on: boolean) => void (failing = on),
  };
}

const scans = () => {
  let n = 0;
  return async () => `scan ${++n}`;
};

describe('the kept scan with a shared counter', () => {
  it('is served until another instance bumps the counter, then scanned again', async () => {
    const c = counter();
    const scan = scans();
    const cache = cachedScan<string>({ shared: c.shared });
    expect(await cache.get(scan)).toBe('scan 1');
    expect(await cache.get(scan)).toBe('scan 1');
    c.bumpElsewhere();
    expect(await cache.get(scan)).toBe('scan 2');
    expect(await cache.get(scan)).toBe('scan 2');
  });

  it('bumps the counter on invalidate, so the others see it', async () => {
    const c = counter();
    const scan = scans();
    const mine = cachedScan<string>({ shared: c.shared });
    const other = cachedScan<string>({ shared: c.shared });
    await other.get(scan);
    await mine.invalidate();
    expect(await other.get(scan)).toBe('scan 2');
  });

  it('serves nothing kept while the counter cannot be read, and reports the failure', async () => {
    const c = counter();
    const scan = scans();
    const failures: unknown[] = [];
    const cache = cachedScan<string>({ shared: c.shared, onSharedError: (e) => failures.push(e) });
    expect(await cache.get(scan)).toBe('scan 1');
    c.fail(true);
    expect(await cache.get(scan)).toBe('scan 2');
    expect(await cache.get(scan)).toBe('scan 3');
    await cache.invalidate(); // the bump fails too: reported, not thrown
    expect(failures).toHaveLength(3);
    c.fail(false);
    expect(await cache.get(scan)).toBe('scan 4');
    expect(await cache.get(scan)).toBe('scan 4');
  });
});
