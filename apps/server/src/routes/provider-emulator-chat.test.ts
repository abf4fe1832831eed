import type { AddressInfo } from 'node:net';
import {
  createVapiEmulator,
  DONT_KNOW,
  emulatorMigrations,
  NO_DOCUMENTS,
  type EmulatorCallDirectory,
  type VapiEmulatorDeps,
} from '@engage/vapi-emulator';
import { fileReports, minimalDocx, minimalPdf } from '@engage/vapi-emulator/testing';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';

// Chats against the emulator over real HTTP: documents uploaded and attached (a query tool, a v2
// knowledge base) are answered by POST /chat/web with the public key; sessions keep the conversation
// and never cross from one key's chats to the other's.

const keys = { publicKey: 'pk-chat', privateKey: 'sk-chat' };
const DELAY = 1000;

const REFUNDS =
  '# Refunds\n\nRefunds are paid to the original card within 14 days of the return.\n\n' +
  'Items bought on sale can be exchanged but not refunded.';

interface WebChat {
  id: string;
  sessionId: string;
  output: { role: string; content: string }[];
}

for (const target of testDbTargets()) {
  describe(`chats with the local assistant (${target.name})`, () => {
    let db: Db;
    let t = Date.parse('2026-11-24T09:00:00Z');
    const servers: ServerType[] = [];
    /** How many times a file's passages were read for indexing. */
    let contentReads = 0;
    /** Uploads are read by the emulator's extraction worker: `upload` awaits the file's report. */
    const reports = fileReports();
    let base: string;

    const start = async (deps: Partial<VapiEmulatorDeps> = {}) => {
      // Counts the index's reads of file contents, so a test can tell a cached index from a rebuilt one.
      const counted = new Proxy(db, {
        get(target, prop, receiver) {
          if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
          return (sql: string, params?: readonly unknown[]) => {
            if (sql.startsWith('select passages from emulator_files')) contentReads++;
            return target.query(sql, params);
          };
        },
      });
      const emulator = createVapiEmulator({
        db: counted,
        keys,
        now: () => new Date(t),
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
      t += DELAY;
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

    it('answers a question from an attached file with the public key, and a follow-up in the same session', async () => {
      const first = await webChat({ assistantId, input: 'When are refunds paid?' });
      expect(first).toEqual({
        id: expect.any(String),
        sessionId: expect.any(String),
        output: [
          {
            role: 'assistant',
            content: 'From refunds.md: "Refunds are paid to the original card within 14 days of the return."',
          },
        ],
      });
      const reads = contentReads;
      const followUp = await webChat({ sessionId: first.sessionId, input: 'Can sale items be refunded?' });
      expect(followUp.sessionId).toBe(first.sessionId);
      expect(answer(followUp)).toBe(
        'From refunds.md: "Items bought on sale can be exchanged but not refunded."',
      );
      // The index was built once: the second question read no file again.
      expect(contentReads).toBe(reads);

      // The operator sees the chat with the conversation before it.
      const res = await fetch(`${base}/chat/${followUp.id}`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      expect(await res.json()).toMatchObject({
        id: followUp.id,
        sessionId: first.sessionId,
        assistantId,
        input: 'Can sale items be refunded?',
        messages: [
          { role: 'user', content: 'When are refunds paid?' },
          { role: 'assistant', content: answer(first) },
        ],
        output: [{ role: 'assistant', content: answer(followUp) }],
      });
    });

    it.each(['What is the capital of France?', 'Who won the football world cup?', 'What day is it today?'])(
      'says it does not know %j instead of quoting an unrelated passage',
      async (question) => {
        const chat = await webChat({ assistantId, input: question });
        expect(answer(chat)).toBe(DONT_KNOW);
      },
    );

    it('takes a message array (the last user message is the question) and greets a bare hello', async () => {
      const chat = await webChat({
        assistantId,
        input: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'When are refunds paid?' },
        ],
      });
      expect(answer(chat)).toContain('within 14 days');
      expect(answer(await webChat({ assistantId, input: 'Hello!' }))).toBe('Welcome to the store!');
    });

    it('answers from a v2 knowledge base (PDF and DOCX) once its files are ready; without tools it says it has no documents', async () => {
      const kb = await created<{ id: string }>(await send('/v2/knowledge-base', { name: 'Office' }));
      const pdf = await upload(
        'lockers.pdf',
        minimalPdf(['Lockers are on the second floor next to the kitchen.']),
      );
      const docx = await upload(
        'parking.docx',
        minimalDocx(['Visitors may park for free in the basement garage.']),
      );
      for (const fileId of [pdf, docx])
        await created(await send(`/v2/knowledge-base/${kb.id}/file`, { fileId }));
      const toolId = (
        (await (
          await fetch(`${base}/v2/knowledge-base/${kb.id}`, {
            headers: { Authorization: `Bearer ${keys.privateKey}` },
          })
        ).json()) as { toolId: string }
      ).toolId;
      const office = { model: { provider: 'openai', model: 'gpt-4o', toolIds: [toolId] } };
      // Still indexing: nothing to answer from yet.
      expect(answer(await webChat({ assistant: office, input: 'Where are the lockers?' }))).toBe(DONT_KNOW);
      t += DELAY;
      expect(answer(await webChat({ assistant: office, input: 'Where are the lockers?' }))).toBe(
        'From lockers.pdf: "Lockers are on the second floor next to the kitchen."',
      );
      expect(answer(await webChat({ assistant: office, input: 'Where can visitors park?' }))).toBe(
        'From parking.docx: "Visitors may park for free in the basement garage."',
      );
      const bare = { model: { provider: 'openai', model: 'gpt-4o' } };
      expect(answer(await webChat({ assistant: bare, input: 'When are refunds paid?' }))).toBe(NO_DOCUMENTS);
    });

    it('answers POST /chat with the private key in the Chat shape', async () => {
      const chat = await created<Record<string, unknown>>(
        await send('/chat', { assistantId, input: 'When are refunds paid?', name: 'Support' }),
      );
      expect(chat).toMatchObject({
        id: expect.any(String),
        orgId: expect.any(String),
        assistantId,
        name: 'Support',
        sessionId: expect.any(String),
        input: 'When are refunds paid?',
        messages: [],
        output: [{ role: 'assistant', content: expect.stringContaining('14 days') }],
        createdAt: new Date(t).toISOString(),
      });
      const followUp = await created<Record<string, unknown>>(
        await send('/chat', { previousChatId: chat.id, input: 'And sale items?' }),
      );
      expect(followUp.sessionId).toBe(chat.sessionId);
      expect((followUp.messages as unknown[]).length).toBe(2);
    });

    it('never continues a private-key session through /chat/web, nor an expired one', async () => {
      const secret = await created<{ sessionId: string }>(
        await send('/chat', { assistantId, input: 'My account number is 12345. When are refunds paid?' }),
      );
      const probe = await send(
        '/chat/web',
        { sessionId: secret.sessionId, input: 'What did I say?' },
        keys.publicKey,
      );
      expect(probe.status).toBe(404);
      expect(await probe.text()).not.toContain('12345');
      // With an assistant named, a new session starts: none of the other conversation comes along.
      const fresh = await webChat({
        sessionId: secret.sessionId,
        assistantId,
        input: 'When are refunds paid?',
      });
      expect(fresh.sessionId).not.toBe(secret.sessionId);
      const seen = (await (
        await fetch(`${base}/chat/${fresh.id}`, { headers: { Authorization: `Bearer ${keys.privateKey}` } })
      ).json()) as { messages: unknown[] };
      expect(seen.messages).toEqual([]);

      const short = await webChat({ assistantId, input: 'Hello', sessionExpirationSeconds: 60 });
      t += 61_000;
      expect(
        (await send('/chat/web', { sessionId: short.sessionId, input: 'Hi' }, keys.publicKey)).status,
      ).toBe(404);
    });

    it('refuses bad requests with a clear 400, and the wrong key with 401', async () => {
      const problem = async (res: Response) => {
        const body = (await res.json()) as { message: string | string[] };
        return { status: res.status, message: [body.message].flat().join(' | ') };
      };
      expect(await problem(await send('/chat/web', { assistantId }, keys.publicKey))).toEqual({
        status: 400,
        message: expect.stringContaining('input must be provided'),
      });
      expect(
        await problem(await send('/chat/web', { assistantId: 'nope', input: 'Hi' }, keys.publicKey)),
      ).toEqual({
        status: 400,
        message: expect.stringContaining('`assistantId` nope Does Not Exist'),
      });
      expect(await problem(await send('/chat/web', { input: 'Hi' }, keys.publicKey))).toEqual({
        status: 400,
        message: expect.stringContaining('assistantId or assistant must be provided'),
      });
      expect(
        await problem(await send('/chat/web', { assistantId, input: 'Hi', stream: true }, keys.publicKey)),
      ).toEqual({
        status: 400,
        message: expect.stringContaining('stream: true is not emulated'),
      });
      expect(
        await problem(await send('/chat/web', { assistantId, input: 'Hi', colour: 'red' }, keys.publicKey)),
      ).toEqual({
        status: 400,
        message: expect.stringContaining('property colour should not exist'),
      });
      const many = Array.from({ length: 51 }, () => ({ role: 'user', content: 'Hi' }));
      // Each says what is wrong with the input sent, not a generic "string or array".
      expect(await problem(await send('/chat/web', { assistantId, input: many }, keys.publicKey))).toEqual({
        status: 400,
        message: expect.stringContaining('input may hold at most 50 messages'),
      });
      expect(
        await problem(await send('/chat/web', { assistantId, input: 'x'.repeat(10_001) }, keys.publicKey)),
      ).toEqual({ status: 400, message: expect.stringContaining('10000') });
      expect(
        await problem(
          await send('/chat/web', { assistantId, input: [{ role: 'robot', content: 'Hi' }] }, keys.publicKey),
        ),
      ).toEqual({ status: 400, message: expect.stringContaining('role must be one of') });
      expect(await problem(await send('/chat/web', { assistantId, input: 42 }, keys.publicKey))).toEqual({
        status: 400,
        message: expect.stringContaining('input must be a string, or an array of messages'),
      });
      expect(
        (await send('/chat/web', { assistantId, input: 'x'.repeat(2 * 1024 * 1024) }, keys.publicKey)).status,
      ).toBe(413);

      expect((await send('/chat/web', { assistantId, input: 'Hi' }, null)).status).toBe(401);
      expect((await send('/chat/web', { assistantId, input: 'Hi' }, 'pk-wrong')).status).toBe(401);
      // The public key opens /chat/web only: not /chat, not the chats themselves.
      expect((await send('/chat', { assistantId, input: 'Hi' }, keys.publicKey)).status).toBe(401);
      const chat = await webChat({ assistantId, input: 'Hi' });
      expect(
        (await fetch(`${base}/chat/${chat.id}`, { headers: { Authorization: `Bearer ${keys.publicKey}` } }))
          .status,
      ).toBe(401);
    });

    it("answers a question typed during a web call from the call's assistant's documents", async () => {
      let directory: EmulatorCallDirectory | undefined;
      const withRooms = await start({
        rooms: (calls) => {
          directory = calls;
          return new Hono();
        },
      });
      const call = await created<{ id: string }>(
        await send('/call/web', { assistantId }, keys.publicKey, withRooms),
      );
      expect(await directory!.answer(call.id, 'When are refunds paid?')).toBe(
        'From refunds.md: "Refunds are paid to the original card within 14 days of the return."',
      );
      expect(await directory!.answer(call.id, 'Who wrote Hamlet?')).toBe(DONT_KNOW);
      expect(await directory!.answer('no-such-call', 'When are refunds paid?')).toBe(NO_DOCUMENTS);
    });

    it('keeps at most maxStoredChats sessions and chats, whatever lifetime a caller asks for', async () => {
      const capped = await start({ maxStoredChats: 3 });
      const sessions: string[] = [];
      for (let i = 0; i < 5; i++) {
        t += 1000;
        const res = await send(
          '/chat/web',
          { assistantId, input: `Hi ${i}`, sessionExpirationSeconds: 2_592_000 },
          keys.publicKey,
          capped,
        );
        sessions.push((await created<WebChat>(res)).sessionId);
      }
      const count = async (table: string) =>
        (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n;
      expect(await count('emulator_chat_sessions')).toBeLessThanOrEqual(3);
      expect(await count('emulator_chats')).toBeLessThanOrEqual(3);
      // The newest session goes on; the oldest is gone, which is a clear 404, not a server error.
      t += 1000;
      const newest = await send(
        '/chat/web',
        { input: 'again', sessionId: sessions[4] },
        keys.publicKey,
        capped,
      );
      expect(newest.status).toBe(201);
      const oldest = await send(
        '/chat/web',
        { input: 'again', sessionId: sessions[0] },
        keys.publicKey,
        capped,
      );
      expect(oldest.status).toBe(404);
      // One long session's exchanges are capped too.
      for (let i = 0; i < 4; i++) {
        t += 1000;
        await created(
          await send('/chat/web', { input: `more ${i}`, sessionId: sessions[4] }, keys.publicKey, capped),
        );
      }
      expect(await count('emulator_chats')).toBeLessThanOrEqual(3);
    });

    it('limits POST /chat/web per caller address (429 with Retry-After)', async () => {
      const limited = await start({ chatsPerMinutePerAddress: 2 });
      const ask = () => send('/chat/web', { assistantId, input: 'Hi' }, keys.publicKey, limited);
      expect((await ask()).status).toBe(201);
      expect((await ask()).status).toBe(201);
      const refused = await ask();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
}
