// GET /metrics as an operator's Prometheus scrapes it: off without METRICS_TOKEN, behind the token
// with it, and counting what the features report.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app-harness.js';
import { countingRefusals, noMetrics } from './metrics.js';

const TOKEN = 'metrics-token-of-at-least-32-characters';
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

const scrape = (token = TOKEN) =>
  test!.app.request('/metrics', { headers: { Authorization: `Bearer ${token}` } });

/** One sample's value from the text format, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('is off without METRICS_TOKEN: nothing is served at /metrics', async () => {
    test = await startTestApp();
    const res = await scrape();
    // Whatever the site answers for a path it does not have (here: no site built), never metrics.
    expect(res.status).not.toBe(200);
    expect(await res.text()).not.toContain('engage_http_requests_total');
  });

  it('answers only the configured Bearer token, without saying what it is', async () => {
    test = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: `Bearer ${TOKEN}x` },
      { Authorization: `Basic ${TOKEN}` },
    ]) {
      const res = await test.app.request('/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.text()).not.toContain(TOKEN);
    }
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a METRICS_TOKEN shorter than 32 characters at start', async () => {
    await expect(startTestApp({ env: { METRICS_TOKEN: 'short' } })).rejects.toThrow(/METRICS_TOKEN/);
  });

  it('counts requests by route template and status, with their latency, and the process own figures', async () => {
    test = await startTestApp({ env: { METRICS_TOKEN: TOKEN, EMULATOR_PRIVATE_KEY: 'metrics-private-key' } });
    await test.app.request('/config.json');
    await test.app.request('/config.json');
    await test.app.request('/provider/file/6b0e3c6e-0000-4000-8000-000000000001', {
      headers: { Authorization: 'Bearer metrics-private-key' },
    });
    const text = await (await scrape()).text();
    expect(sample(text, 'engage_http_requests_total{method="GET",route="/config.json",status="200"}')).toBe(
      2,
    );
    // The template, never the id a caller put in the path.
    expect(text).toMatch(/route="\/provider\/file\/:id",status="404"/);
    expect(text).not.toContain('6b0e3c6e');
    expect(
      sample(
        text,
        'engage_http_request_duration_seconds_count{method="GET",route="/config.json",status="200"}',
      ),
    ).toBe(2);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(sample(text, 'engage_call_rooms_open')).toBe(0);
  });

  it('counts WebSocket calls started and refusals by limit', async () => {
    test = await startTestApp({ env: { METRICS_TOKEN: TOKEN, WEBSOCKET_CALLS_PER_MINUTE: '1' } });
    const start = () =>
      test!.app.request('/api/calls/websocket', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ assistantId: test!.config.ASSISTANT_ID_INDEX }),
      });
    expect((await start()).status).toBe(201);
    expect((await start()).status).toBe(429);
    const text = await (await scrape()).text();
    expect(sample(text, 'engage_websocket_calls_started_total')).toBe(1);
    expect(sample(text, 'engage_rate_limit_refusals_total{limit="websocket-calls"}')).toBe(1);
  });

  it('reports the PostgreSQL pool where there is one, and the newest backup', async () => {
    const pooled = { poolStats: () => ({ total: 3, idle: 2, waiting: 1 }) };
    const at = '2026-11-28T03:00:00.000Z';
    test = await startTestApp({
      env: { METRICS_TOKEN: TOKEN },
      deps: ({ db }) => {
        Object.assign(db, pooled);
        return {
          backupStatus: () => ({
            mode: 'scheduled' as const,
            everyMs: 86_400_000,
            keep: 7,
            last: { at, bytes: 123_456, file: 'engage-backup.tar' },
            lastError: null,
          }),
        };
      },
    });
    const text = await (await scrape()).text();
    expect(sample(text, 'engage_backup_last_success_timestamp_seconds')).toBe(Date.parse(at) / 1000);
    expect(sample(text, 'engage_backup_last_size_bytes')).toBe(123_456);
    expect(sample(text, 'engage_database_pool_connections{state="total"}')).toBe(3);
    expect(sample(text, 'engage_database_pool_connections{state="waiting"}')).toBe(1);
  });
});

describe('countingRefusals', () => {
  it("names the limit from the stored key, whether the caller's part is plain or hashed", async () => {
    const refused: string[] = [];
    const store = countingRefusals(
      {
        take: async (key) => ({ allowed: !key.includes('x'), retryAfterMs: 0 }),
        peek: async () => ({ allowed: true, retryAfterMs: 0 }),
        refund: async () => undefined,
      },
      { ...noMetrics, limitRefused: (limit) => refused.push(limit) },
    );
    const spec = { burst: 1, perWindow: 1, windowMs: 1000 };
    await store.take('auth.signin:1.2.3.4', spec, 0);
    await store.take('auth.signin:x', spec, 0);
    await store.take('emulator.calls#xHash', spec, 0);
    expect(refused).toEqual(['auth.signin', 'emulator.calls']);
  });
});
