// Test support for the provider-emulator-chat-*.test.ts suites: chats against the emulator over real
// HTTP. Documents uploaded and attached (a query tool, a v2 knowledge base) are answered by
// POST /chat/web with the public key; one assistant with a query tool over REFUNDS is made before
// the suite's tests.
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, expect } from 'vitest';
import { createVapiEmulator, emulatorMigrations, type VapiEmulatorDeps } from '@engage/vapi-emulator';
import { fileReports } from '@engage/vapi-emulator/testing';

export const keys = { publicKey: 'pk-chat', privateKey: 'sk-chat' };
export const DELAY = 1000;

export const REFUNDS =
  '# Refunds\n\nRefunds are paid to the original card within 14 days of the return.\n\n' +
  'Items bought on sale can be exchanged but not refunded.';

export interface WebChat {
  id: string;
  sessionId: string;
  output: { role: string; content: string }[];
}

export interface ChatEmulator {
  /** Set in beforeAll. */
  db: Db;
  base: string;
  assistantId: string;
  start(deps?: Partial<VapiEmulatorDeps>): Promise<string>;
  send(path: string, body: unknown, key?: string | null, url?: string): Promise<Response>;
  created<T>(res: Response): Promise<T>;
  upload(name: string, content: string | Uint8Array): Promise<string>;
  webChat(body: Record<string, unknown>): Promise<WebChat>;
  answer(chat: WebChat): string;
}

export interface ChatClock {
  now(): Date;
  advance(ms: number): void;
  /** Called on each of the index's reads of file contents (a cached index from a rebuilt one). */
  onContentRead?(): void;
}

export function useChatEmulator(target: TestDbTarget, clock: ChatClock): ChatEmulator {
  let db: Db;
  const servers: ServerType[] = [];
  /** Uploads are read by the emulator's extraction worker: `upload` awaits the file's report. */
  const reports = fileReports();
  let base: string;

  const start = async (deps: Partial<VapiEmulatorDeps> = {}) => {
    // Counts the index's reads of file contents, so a test can tell a cached index from a rebuilt one.
    const counted = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
        return (sql: string, params?: readonly unknown[]) => {
          if (sql.startsWith('select passages from emulator_files')) clock.onContentRead?.();
          return target.query(sql, params);
        };
      },
    });
    const emulator = createVapiEmulator({
      db: counted,
      keys,
      now: clock.now,
      processingDelayMs: DELAY,
      onFileProcessed: reports.onFileProcessed,
      ...deps,
    });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const send = (path: string, body: unknown, key: string | null = keys.privateKey, url = base) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const created = async <T>(res: Response): Promise<T> => {
    const body = (await res.json()) as T;
    expect(res.status, JSON.stringify(body)).toBeLessThan(300);
    return body;
  };
  const upload = async (name: string, content: string | Uint8Array) => {
    const form = new FormData();
    form.set('file', new File([typeof content === 'string' ? content : new Uint8Array(content)], name));
    const res = await fetch(`${base}/file`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.privateKey}` },
      body: form,
    });
    const { id } = await created<{ id: string }>(res);
    await reports.settled(id);
    return id;
  };
  const webChat = async (body: Record<string, unknown>) =>
    created<WebChat>(await send('/chat/web', body, keys.publicKey));
  const answer = (chat: WebChat) => chat.output[0]?.content ?? '';

  let assistantId: string;

  beforeAll(async () => {
    db = await target.open(emulatorMigrations);
    base = await start();
    const refunds = await upload('refunds.md', REFUNDS);
    clock.advance(DELAY);
    const tool = await created<{ id: string }>(
      await send('/tool', {
        type: 'query',
        knowledgeBases: [
          { provider: 'google', name: 'policies', description: 'Store policies', fileIds: [refunds] },
        ],
      }),
    );
    assistantId = (
      await created<{ id: string }>(
        await send('/assistant', {
          name: 'Store',
          firstMessage: 'Welcome to the store!',
          model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id] },
        }),
      )
    ).id;
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await db.close();
  });

  return {
    get db() {
      return db;
    },
    get base() {
      return base;
    },
    get assistantId() {
      return assistantId;
    },
    start,
    send,
    created,
    upload,
    webChat,
    answer,
  };
}
