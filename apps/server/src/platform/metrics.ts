import { createHash, timingSafeEqual } from 'node:crypto';
import type { PoolStats } from '@engage/db';
import type { LimitStore } from '@engage/rate-limit';
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { routePath } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { bearerToken } from './bearer-token.js';

/**
 * Prometheus metrics of this instance (GET /metrics, off unless METRICS_TOKEN is set): requests by
 * route template and status with their latency, call rooms open, WebSocket calls started, limiter
 * refusals by limit, the database pool and its outages, backups, and the process's own (memory,
 * event-loop lag, garbage collection). Each instance answers for itself: Prometheus scrapes each one.
 * @module
 */

/** What the features report; a no-op when metrics are off, so they never ask whether they are on. */
export interface MetricsSink {
  /** A WebSocket call created (POST /api/calls/websocket answered 201). */
  websocketCallStarted(): void;
  /** A limiter said no: `limit` is its name (auth.signin, emulator.calls, websocket-calls…). */
  limitRefused(limit: string): void;
  /** A request met an unreachable database (answered 503 database_unavailable). */
  databaseUnavailable(): void;
}

/** Values read at scrape time from the parts that hold them. */
export interface MetricsSources {
  /** Call rooms open on this instance. */
  callRooms?: () => number;
  /** The PostgreSQL pool: connections in all, idle, and requests waiting for one. */
  pool?: () => PoolStats;
  /** The newest backup this instance took or found: when (ms since the epoch) and how large. */
  lastBackup?: () => { at: number; bytes: number } | null;
}

export interface Metrics extends MetricsSink {
  /** Times every request; mount first, before anything answers. */
  requests: MiddlewareHandler;
  /** GET /metrics, behind the token. */
  routes(sources: MetricsSources): Hono;
}

export const noMetrics: MetricsSink = {
  websocketCallStarted: () => undefined,
  limitRefused: () => undefined,
  databaseUnavailable: () => undefined,
};

/** Seconds: from a cached answer to a slow sign-in (Argon2) or a document upload. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Metrics with their own registry (one per app, so tests can build several apps in one process). */
export function createMetrics(token: string): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'engage_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'engage_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const callsStarted = new Counter({
    name: 'engage_websocket_calls_started_total',
    help: 'Calls created over the WebSocket transport (POST /api/calls/websocket).',
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'engage_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by limit.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const outages = new Counter({
    name: 'engage_database_unavailable_total',
    help: 'Requests answered 503 because the database could not be reached.',
    registers: [registry],
  });
  const expected = digest(token);

  return {
    requests: async (c, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const labels = { method: c.req.method, route: templateOf(c), status: String(c.res.status) };
        requests.inc(labels);
        latency.observe(labels, (performance.now() - started) / 1000);
      }
    },
    websocketCallStarted: () => callsStarted.inc(),
    limitRefused: (limit) => refusals.inc({ limit }),
    databaseUnavailable: () => outages.inc(),
    routes(sources) {
      scrapedGauges(registry, sources);
      const app = new Hono();
      app.get('/metrics', async (c) => {
        const given = bearerToken(c);
        if (!given || !timingSafeEqual(digest(given), expected)) {
          c.header('WWW-Authenticate', 'Bearer realm="metrics"');
          return c.json({ error: 'unauthorized', message: 'Send the METRICS_TOKEN as a Bearer token.' }, 401);
        }
        c.header('Cache-Control', 'no-store');
        return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType });
      });
      return app;
    },
  };
}

/** The route's template (/api/admin/users/:id), never the path itself: a label per URL would be unbounded. */
function templateOf(c: Context): string {
  try {
    return routePath(c);
  } catch {
    return 'unmatched';
  }
}

function scrapedGauges(registry: Registry, sources: MetricsSources): void {
  const { callRooms, pool, lastBackup } = sources;
  if (callRooms)
    new Gauge({
      name: 'engage_call_rooms_open',
      help: 'Call rooms (WebSocket calls of the embedded provider) open on this instance.',
      registers: [registry],
      collect() {
        this.set(callRooms());
      },
    });
  if (pool)
    new Gauge({
      name: 'engage_database_pool_connections',
      help: 'PostgreSQL pool connections, by state (total, idle, waiting requests).',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const now = pool();
        this.set({ state: 'total' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
  if (lastBackup) {
    new Gauge({
      name: 'engage_backup_last_success_timestamp_seconds',
      help: 'When the newest backup was taken (Unix time); absent before the first.',
      registers: [registry],
      collect() {
        const last = lastBackup();
        if (last) this.set(last.at / 1000);
      },
    });
    new Gauge({
      name: 'engage_backup_last_size_bytes',
      help: 'The size of the newest backup.',
      registers: [registry],
      collect() {
        const last = lastBackup();
        if (last) this.set(last.bytes);
      },
    });
  }
}

/**
 * `store`, telling `sink` of every refusal by the limit's name: every limit of the server and the
 * embedded provider counts in this one store, under `<limit name>:` (or `#`, hashed) keys.
 */
export function countingRefusals(store: LimitStore, sink: MetricsSink): LimitStore {
  return {
    peek: (key, spec, now) => store.peek(key, spec, now),
    refund: (key, spec, now) => store.refund(key, spec, now),
    async take(key, spec, now) {
      const decision = await store.take(key, spec, now);
      if (!decision.allowed) sink.limitRefused(/^[^:#]*/.exec(key)?.[0] ?? 'unknown');
      return decision;
    },
  };
}
