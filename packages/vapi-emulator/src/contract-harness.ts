// Test support for provider-emulator-contract*.test.ts: the emulator checked against the provider's
// OpenAPI document (shared/provider/openapi.json, copied into packages/vapi-contract) and against
// the provider's own SDK. Two emulators over one database: the strict one and one with
// requireFilePurpose off.
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import { createVapiClient, type VapiClient } from '@engage/vapi-client';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import { createVapiEmulator, emulatorMigrations } from '@engage/vapi-emulator';
import { fileReports } from '@engage/vapi-emulator/testing';
import { manualClock } from './routes/routes-harness.js';

export { apiError, forbidden } from './routes/routes-harness.js';
export const keys = { publicKey: 'pk-contract', privateKey: 'sk-contract' };
export const DELAY = 1000;
export const text = (content: string, name: string) => new File([content], name, { type: 'text/plain' });

export interface ContractEmulator {
  /** The strict emulator's address and a typed client for it; set in beforeAll. */
  baseUrl: string;
  vapi: VapiClient;
  /** The emulator with requireFilePurpose off. */
  lenientUrl: string;
  clock: ReturnType<typeof manualClock>;
  /** Uploads are read by the emulator's extraction worker: a test awaits a file's report. */
  reports: ReturnType<typeof fileReports>;
}

/** Starts both emulators before the suite's tests and stops them after. */
export function useContractEmulator(target: TestDbTarget): ContractEmulator {
  const h = { clock: manualClock(), reports: fileReports() } as ContractEmulator;
  let db: Db;
  const servers: ServerType[] = [];

  const start = async (requireFilePurpose?: boolean) => {
    const emulator = createVapiEmulator({
      db,
      keys,
      now: h.clock.now,
      processingDelayMs: DELAY,
      onFileProcessed: h.reports.onFileProcessed,
      ...(requireFilePurpose === undefined ? {} : { requireFilePurpose }),
    });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    db = await target.open(emulatorMigrations);
    h.baseUrl = await start();
    h.lenientUrl = await start(false);
    h.vapi = createVapiClient({ baseUrl: h.baseUrl, token: keys.privateKey });
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await db.close();
  });

  return h;
}
