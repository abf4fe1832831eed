import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from './adaptive-limit';

describe('AdaptiveLimit', () => {
  it('starts small and grows by one per quick answer until trouble, never past the maximum', () => {
    const limit = new AdaptiveLimit({ initial: 3, max: 6 });
    expect(limit.current).toBe(3);
    for (let i = 0; i < 10; i++) limit.succeeded(50, i);
    expect(limit.current).toBe(6);
  });

  it('does not grow on slow answers', () => {
    const limit = new AdaptiveLimit({ initial: 3, quickMs: 800 });
    for (let i = 0; i < 10; i++) limit.succeeded(1_000, i);
    expect(limit.current).toBe(3);
  });

  it('halves on a 429, once per cool-down, then grows one per window of quick answers', () => {
    const limit = new AdaptiveLimit({ initial: 8, max: 24, cooldownMs: 1_000 });
    limit.rateLimited(0);
    expect(limit.current).toBe(4);
    limit.rateLimited(500); // the same burst
    expect(limit.current).toBe(4);
    for (let i = 0; i < 3; i++) limit.succeeded(50, 600);
    expect(limit.current).toBe(4);
    limit.succeeded(50, 600);
    expect(limit.current).toBe(5);
    limit.rateLimited(2_000);
    expect(limit.current).toBe(2);
  });

  it('halves when latency rises well above the best seen, never below one', () => {
    const limit = new AdaptiveLimit({ initial: 2, cooldownMs: 0 });
    limit.succeeded(50, 0);
    limit.succeeded(400, 1);
    expect(limit.current).toBe(1);
    limit.succeeded(400, 2);
    expect(limit.current).toBe(1);
  });
});
