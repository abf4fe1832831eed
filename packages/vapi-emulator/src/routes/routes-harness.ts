// Test support for the provider-emulator-*.test.ts suites that drive a standalone emulator over real
// HTTP with the typed client: one emulator per suite, on a hand-moved clock, with settable faults.
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import type { VapiApiError } from '@engage/vapi-client';
import { createVapiClient, isVapiApiError, type VapiClient } from '@engage/vapi-client';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createVapiEmulator, emulatorMigrations, type EmulatorFaults } from '@engage/vapi-emulator';
import { fileReports } from '@engage/vapi-emulator/testing';

export const keys = { publicKey: 'pk-test-public', privateKey: 'sk-test-private' };
/** What the server's own proxy sends in x-engage-proxy. */
export const PROXY_SECRET = 'proxy-secret-for-tests';
export const DELAY = 1500;

/** A clock the tests move by hand: file status depends on it, so nothing sleeps. */
export function manualClock(start = Date.parse('2026-11-21T10:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

export const file = (content: string | Uint8Array, name: string, type = '') =>
  new File([typeof content === 'string' ? content : new Uint8Array(content)], name, { type });

/** A body the document forbids, sent on purpose to see the emulator refuse it. */
export const forbidden = (body: object): never => body as never;

export const apiError = async (promise: Promise<unknown>): Promise<VapiApiError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isVapiApiError(error)) throw new Error(`expected a VapiApiError, got ${String(error)}`);
  return error;
};

export interface HttpEmulator {
  /** Set in beforeAll. */
  db: Db;
  server: ServerType;
  baseUrl: string;
  vapi: VapiClient;
  clock: ReturnType<typeof manualClock>;
  faults: EmulatorFaults;
  /** Uploads are read by the emulator's extraction worker: a test awaits a file's report. */
  reports: ReturnType<typeof fileReports>;
}

/** Starts the emulator before the suite's tests, stops it after; faults are cleared before each test. */
export function useHttpEmulator(target: TestDbTarget): HttpEmulator {
  const h = { clock: manualClock(), faults: {}, reports: fileReports() } as HttpEmulator;

  beforeAll(async () => {
    h.db = await target.open(emulatorMigrations);
    const emulator = createVapiEmulator({
      db: h.db,
      keys,
      now: h.clock.now,
      processingDelayMs: DELAY,
      maxFileBytes: 64 * 1024,
      faults: h.faults,
      forwardedHeaderSecret: PROXY_SECRET,
      onFileProcessed: h.reports.onFileProcessed,
    });
    h.server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    h.baseUrl = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
    h.vapi = createVapiClient({ baseUrl: h.baseUrl, token: keys.privateKey });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => h.server.close(() => resolve()));
    await h.db.close();
  });

  beforeEach(() => {
    delete h.faults.rateLimit;
    delete h.faults.errorRate;
  });

  return h;
}
