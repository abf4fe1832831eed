import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { faultInjection, type EmulatorFaults } from './faults.js';

function appWith(faults: EmulatorFaults | undefined) {
  const app = new Hono();
  app.use('*', faultInjection(faults));
  app.get('/', (c) => c.text('ok'));
  return app;
}

const statuses = async (app: Hono, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await app.request('/')).status);
  return out;
};

describe('faultInjection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds every request for the configured latency', async () => {
    vi.useFakeTimers();
    const app = appWith({ latencyMs: 250 });
    let answered = false;
    const pending = Promise.resolve(app.request('/')).then((res) => {
      answered = true;
      return res;
    });
    await vi.advanceTimersByTimeAsync(249);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('passes everything without faults', async () => {
    expect(await statuses(appWith(undefined), 3)).toEqual([200, 200, 200]);
  });

  it('refuses a first burst with 429 and Retry-After, then lets requests through', async () => {
    const app = appWith({ rateLimit: { burst: 2, retryAfterSeconds: 7 } });
    const first = await app.request('/');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(await first.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(await statuses(app, 3)).toEqual([429, 200, 200]);
  });

  it('repeats bursts with `every`, and restarts when a new schedule is assigned', async () => {
    const faults: EmulatorFaults = { rateLimit: { burst: 1, every: 2 } };
    const app = appWith(faults);
    expect(await statuses(app, 6)).toEqual([429, 200, 200, 429, 200, 200]);
    faults.rateLimit = { burst: 2 };
    expect(await statuses(app, 3)).toEqual([429, 429, 200]);
  });

  it('answers 503 at the error rate, from the injected random source', async () => {
    const draws = [0.05, 0.5, 0.09];
    const app = appWith({ errorRate: 0.1, random: () => draws.shift() ?? 1 });
    expect(await statuses(app, 4)).toEqual([503, 200, 503, 200]);
  });
});
