/** The server benchmarks' one way to time a request: warm-up runs, then p50 and p95 in ms. */
export interface Timing {
  p50: number;
  p95: number;
}

export async function time(fn: () => Promise<unknown>, runs: number, warmup: number): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** "p50 ms | p95 ms", for a table row. */
export const msCells = (t: Timing) => `${t.p50.toFixed(1)} ms | ${t.p95.toFixed(1)} ms`;
