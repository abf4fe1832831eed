export interface AdaptiveLimitOptions {
  /** Uploads in flight to start with. */
  initial?: number;
  max?: number;
  /** An answer slower than this is not "quick": the limit stops growing. */
  quickMs?: number;
  /** After a decrease, no other decrease for this long (one slow burst halves once). */
  cooldownMs?: number;
}

/**
 * How many uploads may be in flight, adapted as TCP adapts its window: +1 per quick answer at first
 * (doubling each round trip), +1 per window of quick answers after the first sign of trouble; halved
 * on a 429 or when latency rises well above the best seen (the provider queueing our requests).
 */
export class AdaptiveLimit {
  #current: number;
  readonly #max: number;
  readonly #quickMs: number;
  readonly #cooldownMs: number;
  #best = Number.POSITIVE_INFINITY;
  #streak = 0;
  #slowStart = true;
  #quietUntil = Number.NEGATIVE_INFINITY;

  constructor({ initial = 3, max = 24, quickMs = 800, cooldownMs = 1_000 }: AdaptiveLimitOptions = {}) {
    this.#current = Math.max(1, Math.min(initial, max));
    this.#max = max;
    this.#quickMs = quickMs;
    this.#cooldownMs = cooldownMs;
  }

  get current(): number {
    return this.#current;
  }

  /** A request succeeded after `latencyMs`, at time `now`. */
  succeeded(latencyMs: number, now: number): void {
    this.#best = Math.min(this.#best, latencyMs);
    if (latencyMs > Math.max(2 * this.#best, this.#best + 150)) {
      this.#decrease(now);
      return;
    }
    if (latencyMs >= this.#quickMs) return;
    this.#streak += 1;
    if (this.#streak >= (this.#slowStart ? 1 : this.#current)) {
      this.#streak = 0;
      this.#current = Math.min(this.#max, this.#current + 1);
    }
  }

  /** The provider answered 429 at time `now`. */
  rateLimited(now: number): void {
    this.#decrease(now);
  }

  #decrease(now: number): void {
    this.#slowStart = false;
    this.#streak = 0;
    if (now < this.#quietUntil) return;
    this.#current = Math.max(1, Math.floor(this.#current / 2));
    this.#quietUntil = now + this.#cooldownMs;
  }
}
