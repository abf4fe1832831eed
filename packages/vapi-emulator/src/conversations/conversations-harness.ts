// Test support for the provider-emulator-conversations-*.test.ts suites (the provider's half):
// the embedded provider with its rooms on a real port, over a test database, on the suite's own clock.
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import { serve, type ServerType } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  createRooms,
  createVapiEmulator,
  emulatorMigrations,
  SEEDED_ASSISTANT_IDS,
  type RoomsOptions,
  type VapiEmulatorDeps,
} from '@engage/vapi-emulator';

export const keys = { publicKey: 'pk-conversations', privateKey: 'sk-conversations' };
export const INDEX = SEEDED_ASSISTANT_IDS.index;
export const OTHER = SEEDED_ASSISTANT_IDS.ediscovery;
export const GREETING =
  'Hello! I can tell you about my background as a technology leader. What would you like to know?';

export interface Message {
  role: string;
  message: string;
  time: number;
  endTime?: number;
  secondsFromStart: number;
}
export interface Call {
  id: string;
  status: string;
  assistantId?: string;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  endedReason?: string;
  messages: Message[];
  transcript: string;
  artifact: {
    messages: Message[];
    messagesOpenAIFormatted: { role: string; content: string }[];
    transcript: string;
  };
}
export interface Chat {
  id: string;
  sessionId: string;
  assistantId?: string;
  input: unknown;
  output: { role: string; content: string }[];
  messages: { role: string; content: string }[];
  createdAt: string;
}
export interface ChatPage {
  results: Chat[];
  metadata: Record<string, unknown>;
}

export interface ConversationEmulator {
  /** Set in beforeAll. */
  db: Db;
  start(deps?: Partial<VapiEmulatorDeps>): Promise<string>;
  request(method: string, path: string, key?: string | null, body?: unknown): Promise<Response>;
  ok<T>(res: Response, status?: number): Promise<T>;
  webChat(body: Record<string, unknown>): Promise<{ id: string; sessionId: string }>;
  count(table: string): Promise<number>;
}

/** The rooms' clock, for a suite that would rather not wait for speech in real time (see fastRoomClock). */
export type RoomClock = Pick<RoomsOptions, 'now' | 'schedule' | 'idleTimeoutMs'>;

/**
 * A room clock that moves one tick (20 ms of speech) every real millisecond: a greeting and an answer
 * play in well under a second instead of about ten. The idle timeout is the room clock's too, so it is
 * lifted past anything a test waits for (an answer looked up in real time).
 */
export function fastRoomClock(): RoomClock {
  let t = 0;
  return {
    now: () => t,
    schedule: (tick, everyMs) => {
      const timer = setInterval(() => {
        t += everyMs;
        tick();
      }, 1);
      timer.unref();
      return () => clearInterval(timer);
    },
    idleTimeoutMs: 24 * 60 * 60_000,
  };
}

/**
 * Opens the database and starts one emulator before the suite's tests (more with start()), closes
 * them after. now is the emulator's clock (rooms use the wall clock for message times, as the
 * provider does); roomClock, the rooms' own (default: real time).
 */
export function useConversationEmulator(
  target: TestDbTarget,
  now: () => Date,
  roomClock: RoomClock = {},
): ConversationEmulator {
  let db: Db;
  let base: string;
  const servers: { close(): Promise<void> }[] = [];

  const start = async (deps: Partial<VapiEmulatorDeps> = {}) => {
    const root = new Hono();
    const nodeWs = createNodeWebSocket({ app: root });
    let rooms: ReturnType<typeof createRooms> | undefined;
    const emulator = createVapiEmulator({
      db,
      keys,
      now,
      // The per-address limits are another suite's.
      clientAddress: () => undefined,
      rooms: (calls) => {
        rooms = createRooms({ ...calls, ...roomClock, upgradeWebSocket: nodeWs.upgradeWebSocket });
        return rooms.app;
      },
      ...deps,
    });
    root.route('/', emulator);
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    nodeWs.injectWebSocket(server);
    servers.push({
      close: async () => {
        rooms?.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    db = await target.open(emulatorMigrations);
    base = await start();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await db.close();
  });

  const request = (method: string, path: string, key: string | null = keys.privateKey, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const ok = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const webChat = async (body: Record<string, unknown>) =>
    ok<{ id: string; sessionId: string }>(await request('POST', '/chat/web', keys.publicKey, body), 201);
  const count = async (table: string) =>
    (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n;

  return {
    get db() {
      return db;
    },
    start,
    request,
    ok,
    webChat,
    count,
  };
}
