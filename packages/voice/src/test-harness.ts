/**
 * Shared set-up for the SDK's tests (not part of the build): a Vapi instance over the Daily fake
 * and an injected fetch, with every public event recorded in order.
 */
import { afterEach, beforeAll, vi } from 'vitest';
import type { VapiOptions } from './client-options.js';
import { Vapi } from './client.js';
import { blockAutoplay, installMediaStubs } from './testing/dom.js';
import { createGate, FakeDaily, type Gate } from './testing/fake-daily.js';
import { START_STAGES, type VapiEventNames } from './types.js';

export const ALL_EVENTS: VapiEventNames[] = [
  'call-start',
  'call-end',
  'speech-start',
  'speech-end',
  'volume-level',
  'local-volume-level',
  'local-audio-level-observer-error',
  'message',
  'video',
  'audio',
  'error',
  'camera-error',
  'network-quality-change',
  'network-connection',
  'daily-participant-updated',
  'call-start-progress',
  'call-start-success',
  'call-start-failed',
  'recording-started',
  'recording-stopped',
  'recording-error',
];

export const WEB_CALL = {
  id: 'call-123',
  webCallUrl: 'https://engage.daily.co/room-123',
  artifactPlan: { videoRecordingEnabled: false },
  assistant: { voice: { provider: '11labs' } },
};

export interface Recorded {
  name: VapiEventNames;
  args: unknown[];
}

export interface HarnessOptions {
  /** The web call the fake API answers with (or a Response). */
  webCall?: Record<string, unknown> | (() => Response);
  /** Hold the HTTP answer until opened. */
  httpGate?: Gate;
  mobile?: boolean;
  /** Record these events only (default: all). */
  record?: VapiEventNames[] | false;
  options?: VapiOptions;
  key?: string;
}

export function setup(options: HarnessOptions = {}) {
  installMediaStubs();
  blockAutoplay(false);
  const daily = new FakeDaily();
  const requests: {
    url: string;
    headers: Headers;
    body: unknown;
    signal: AbortSignal | undefined;
  }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    requests.push({
      url: String(input),
      headers: new Headers(init?.headers),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      signal,
    });
    if (options.httpGate) {
      await new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        options.httpGate!.promise.then(resolve, reject);
      });
    }
    if (typeof options.webCall === 'function') return options.webCall();
    return new Response(JSON.stringify(options.webCall ?? WEB_CALL), {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
  });
  const vapi = new Vapi(options.key ?? 'pk_test', 'http://api.test', undefined, undefined, {
    fetch,
    dailyFactory: daily,
    isMobile: () => options.mobile ?? false,
    ...options.options,
  });
  const events: Recorded[] = [];
  if (options.record !== false) {
    for (const name of options.record ?? ALL_EVENTS) {
      vapi.on(name, (...args: unknown[]) => events.push({ name, args }));
    }
  }
  const names = (filter?: (name: VapiEventNames) => boolean) =>
    events.filter((e) => !filter || filter(e.name)).map((e) => e.name);
  const progress = () =>
    events
      .filter((e) => e.name === 'call-start-progress')
      .map((e) => {
        const p = e.args[0] as { stage: string; status: string };
        return `${p.stage}:${p.status}`;
      });
  const payloads = <T>(name: VapiEventNames) =>
    events.filter((e) => e.name === name).map((e) => e.args[0] as T);
  return { vapi, daily, fetch, requests, events, names, progress, payloads };
}

/** Lets pending promise callbacks run (several microtask turns). */
export async function flush(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/**
 * Waits until `check` passes, yielding to the event loop between tries (no fixed sleeps). Bounded by
 * time, not by a count of turns: a lazily imported module (the WebSocket room) takes many turns to
 * load when its file runs alone, with nothing cached yet.
 */
export async function until(check: () => boolean, what = 'condition', timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (check()) return;
  throw new Error(`Timed out waiting for ${what}`);
}

export { createGate };

export { START_STAGES };

/**
 * The hooks of every client test file: start() loads the room adapter on first use
 * (rooms/choose.ts); loaded first, so a test that runs first under a fake clock is not racing a
 * real module load (it failed alone or shuffled). After each test: real timers, mocks and DOM reset.
 */
export function withClientTestHooks(): void {
  beforeAll(async () => {
    await import('./rooms/daily.js');
    await import('./rooms/websocket.js');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });
}

/** Registers the client suites' hooks (withClientTestHooks) and hands out the helpers they share. */
export function clientHarness() {
  withClientTestHooks();
  return { createGate, flush, setup, START_STAGES, until, WEB_CALL };
}
