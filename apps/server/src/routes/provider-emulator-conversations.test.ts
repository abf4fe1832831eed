import type { AddressInfo } from 'node:net';
import {
  createRooms,
  createVapiEmulator,
  emulatorMigrations,
  NO_DOCUMENTS,
  pruneConversations,
  conversationCutoff,
  scheduleConversationRetention,
  SEEDED_ASSISTANT_IDS,
  CALL_MESSAGE_LIMITS,
  type EmulatorCallDirectory,
  type VapiEmulatorDeps,
} from '@engage/vapi-emulator';
import { componentProblems } from '@engage/vapi-emulator/testing';
import { serve, type ServerType } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { testDbTargets } from '../db/testing.js';
import type { Db } from '../db/types.js';

// Issue 25, the provider's half: the embedded provider keeps conversations as the provider does.
// A web call's room records what was said (GET /call/{id}: messages, artifact, transcript); chats
// are listed by GET /chat with the document's filters and pagination; DELETE removes a conversation
// with its messages; EMULATOR_CONVERSATION_DAYS prunes older ones. Only the private key reads them.

const keys = { publicKey: 'pk-conversations', privateKey: 'sk-conversations' };
const INDEX = SEEDED_ASSISTANT_IDS.index;
const OTHER = SEEDED_ASSISTANT_IDS.ediscovery;
const GREETING =
  'Hello! I can tell you about my background as a technology leader. What would you like to know?';

interface Message {
  role: string;
  message: string;
  time: number;
  endTime?: number;
  secondsFromStart: number;
}
interface Call {
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
interface Chat {
  id: string;
  sessionId: string;
  assistantId?: string;
  input: unknown;
  output: { role: string; content: string }[];
  messages: { role: string; content: string }[];
  createdAt: string;
}
interface ChatPage {
  results: Chat[];
  metadata: Record<string, unknown>;
}

for (const target of testDbTargets()) {
  describe(`conversations at the embedded provider (${target.name})`, () => {
    let db: Db;
    let base: string;
    const servers: { close(): Promise<void> }[] = [];
    /** The emulator's clock (rooms use the wall clock for message times, as the provider does). */
    let t = Date.now();

    const start = async (deps: Partial<VapiEmulatorDeps> = {}) => {
      const root = new Hono();
      const nodeWs = createNodeWebSocket({ app: root });
      let rooms: ReturnType<typeof createRooms> | undefined;
      const emulator = createVapiEmulator({
        db,
        keys,
        now: () => new Date(t),
        // The per-address limits are another suite's.
        clientAddress: () => undefined,
        rooms: (calls) => {
          rooms = createRooms({ ...calls, upgradeWebSocket: nodeWs.upgradeWebSocket });
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

    describe('a web call', () => {
      it('keeps the greeting, a typed question and its answer, in order, with a transcript', async () => {
        const created = await ok<{ id: string; webCallUrl: string }>(
          await request('POST', '/call/web', keys.publicKey, { assistantId: INDEX }),
          201,
        );
        const ws = new WebSocket(created.webCallUrl);
        const received: Record<string, unknown>[] = [];
        const waiters: (() => void)[] = [];
        ws.on('message', (data, binary) => {
          if (!binary) received.push(JSON.parse(String(data)) as Record<string, unknown>);
          for (const w of waiters.splice(0)) w();
        });
        const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
        const next = (match: (m: Record<string, unknown>) => boolean) =>
          new Promise<Record<string, unknown>>((resolve) => {
            const check = () => {
              const found = received.find(match);
              if (found) resolve(found);
              else waiters.push(check);
            };
            check();
          });
        const final = (text: string) => (m: Record<string, unknown>) =>
          m.type === 'transcript' && m.transcriptType === 'final' && m.transcript === text;

        await next(final(GREETING));
        ws.send(
          JSON.stringify({ type: 'add-message', message: { role: 'user', content: 'Do you ship to Mars?' } }),
        );
        await next(final(NO_DOCUMENTS));
        ws.send(JSON.stringify({ type: 'hangup' }));
        await closed;

        // The room reports to the record as it goes (fire and forget): read until it has it all.
        const read = async () => ok<Call>(await request('GET', `/call/${created.id}`));
        await expect.poll(async () => (await read()).artifact.messages.length).toBe(4);
        await expect.poll(async () => (await read()).status).toBe('ended');
        const call = await read();
        expect(call.messages.map((m) => [m.role, m.message])).toEqual([
          ['system', expect.stringContaining('You speak for the site owner')],
          ['bot', GREETING],
          ['user', 'Do you ship to Mars?'],
          ['bot', NO_DOCUMENTS],
        ]);
        expect(call.artifact.messages).toEqual(call.messages);
        expect(call.transcript).toBe(`AI: ${GREETING}\nUser: Do you ship to Mars?\nAI: ${NO_DOCUMENTS}`);
        expect(call.artifact.transcript).toBe(call.transcript);
        expect(call.artifact.messagesOpenAIFormatted.map((m) => m.role)).toEqual([
          'system',
          'assistant',
          'user',
          'assistant',
        ]);
        // The provider's shapes: each message fits its component, times only go forward.
        const component = { system: 'SystemMessage', bot: 'BotMessage', user: 'UserMessage' } as const;
        for (const m of call.messages)
          expect(componentProblems(component[m.role as keyof typeof component], m)).toEqual([]);
        const seconds = call.messages.map((m) => m.secondsFromStart);
        expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
        expect(call).toMatchObject({ assistantId: INDEX, endedReason: 'customer-ended-call' });
        expect(Date.parse(call.startedAt!)).toBeLessThanOrEqual(Date.parse(call.endedAt!));

        // The list has it too, with the same conversation.
        const listed = await ok<Call[]>(await request('GET', `/call?id=${created.id}`));
        expect(listed.map((c) => c.transcript)).toEqual([call.transcript]);
      });

      it('answers a call no one joined with an empty conversation', async () => {
        const { id } = await ok<{ id: string }>(
          await request('POST', '/call/web', keys.publicKey, { assistantId: INDEX }),
          201,
        );
        const call = await ok<Call>(await request('GET', `/call/${id}`));
        expect(call).toMatchObject({
          messages: [],
          transcript: '',
          artifact: { messages: [], transcript: '' },
        });
        expect(call.startedAt).toBeUndefined();
      });
    });

    it(
      'keeps at most CALL_MESSAGE_LIMITS.perCall messages of a call, each cut to its length',
      { timeout: 60_000 },
      async () => {
        let directory: EmulatorCallDirectory | undefined;
        const url = await start({
          rooms: (calls) => {
            directory = calls;
            return new Hono();
          },
        });
        const created = await fetch(`${url}/call/web`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.publicKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ assistantId: INDEX }),
        });
        const { id } = await ok<{ id: string }>(created, 201);
        const { perCall, chars } = CALL_MESSAGE_LIMITS;
        for (let i = 0; i < perCall + 5; i++)
          directory!.onMessage(id, {
            role: i % 2 ? 'bot' : 'user',
            message: `${i} ${'x'.repeat(chars)}`,
            time: 1_000_000 + i,
            endTime: 1_000_000 + i,
            secondsFromStart: i / 1000,
          });
        const read = async () => ok<Call>(await request('GET', `/call/${id}`));
        // Appended in order: once the last is there, every one before it was written.
        await expect
          .poll(async () => (await read()).messages.at(-1)?.message.startsWith(`${perCall + 4} `), {
            timeout: 30_000,
          })
          .toBe(true);
        const stored = (await read()).messages.filter((m) => m.role !== 'system');
        expect(stored).toHaveLength(perCall);
        expect(stored[0]!.message.startsWith('5 ')).toBe(true);
        expect(stored.every((m) => m.message.length === chars)).toBe(true);
      },
    );

    describe('GET /call', () => {
      it('filters by assistant and created-at range, newest first, pages by createdAtLt', async () => {
        const made: { id: string; createdAt: string; assistantId: string }[] = [];
        for (let i = 0; i < 5; i++) {
          t += 60_000;
          made.push(
            await ok(
              await request('POST', '/call/web', keys.publicKey, { assistantId: i % 2 ? OTHER : INDEX }),
              201,
            ),
          );
        }
        const from = made[0]!.createdAt;
        const others = await ok<Call[]>(
          await request('GET', `/call?assistantId=${OTHER}&createdAtGe=${from}`),
        );
        expect(others.map((c) => c.id)).toEqual([made[3]!.id, made[1]!.id]);

        const range = await ok<Call[]>(
          await request('GET', `/call?createdAtGt=${from}&createdAtLe=${made[3]!.createdAt}`),
        );
        expect(range.map((c) => c.id)).toEqual([made[3]!.id, made[2]!.id, made[1]!.id]);

        // Two at a time, each page below the oldest of the one before.
        const pages: string[][] = [];
        let before = new Date(t + 1).toISOString();
        for (;;) {
          const page = await ok<Call[]>(
            await request('GET', `/call?limit=2&createdAtGe=${from}&createdAtLt=${before}`),
          );
          if (page.length === 0) break;
          pages.push(page.map((c) => c.id));
          before = page.at(-1)!.createdAt;
        }
        expect(pages.flat()).toEqual(made.map((c) => c.id).reverse());
        expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      });

      it.each([
        ['limit=1001', 'limit'],
        ['limit=-1', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=99999999999999999999', 'limit'],
        ['createdAtGt=yesterday', 'createdAtGt'],
        ['createdAtLt=2026-13-45T00:00:00Z', 'createdAtLt'],
        ['updatedAtGe=2026-11-24', 'updatedAtGe'],
        ['createdAtLe=1732406400000', 'createdAtLe'],
        ['assistantId=' + 'x'.repeat(200), 'assistantId'],
        ['sortOrder=ASC', 'sortOrder'],
        ["id=1'%3Bdrop%20table%20emulator_calls--&foo=1", 'foo'],
      ])('refuses %s with 400 naming it', async (query, name) => {
        const res = await request('GET', `/call?${query}`);
        const body = (await res.json()) as { message: string[]; statusCode: number; error: string };
        expect(res.status).toBe(400);
        expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
        expect(body.message.join(' ')).toContain(name);
      });

      it('treats SQL in a filter as a value', async () => {
        const sql = encodeURIComponent("' or 1=1 --");
        expect(await ok<Call[]>(await request('GET', `/call?assistantId=${sql}`))).toEqual([]);
        expect(await count('emulator_calls')).toBeGreaterThan(0);
      });
    });

    describe('GET /chat', () => {
      it('lists chats with the filters and pagination of the document', async () => {
        t += 3_600_000;
        const since = new Date(t).toISOString();
        const first = await webChat({ assistantId: INDEX, input: 'What is your background?' });
        t += 1000;
        const followUp = await webChat({ sessionId: first.sessionId, input: 'And your leadership style?' });
        t += 1000;
        const other = await webChat({ assistantId: OTHER, input: 'How do legal holds work?' });
        t += 1000;
        const third = await webChat({ assistantId: INDEX, input: 'Where did you study?' });

        const all = await ok<ChatPage>(await request('GET', `/chat?createdAtGe=${since}`));
        expect(all.results.map((c) => c.id)).toEqual([third.id, other.id, followUp.id, first.id]);
        expect(all.metadata).toMatchObject({ totalItems: 4, currentPage: 1, itemsPerPage: 100 });
        expect(componentProblems('PaginationMeta', all.metadata)).toEqual([]);

        // A follow-up carries the exchange before it, its input and the answer.
        const follow = all.results.find((c) => c.id === followUp.id)!;
        expect(follow).toMatchObject({ assistantId: INDEX, sessionId: first.sessionId });
        expect(follow.messages.map((m) => [m.role, m.content])).toEqual([
          ['user', 'What is your background?'],
          ['assistant', expect.any(String)],
        ]);
        expect(follow.input).toBe('And your leadership style?');
        // The list answers each chat as GET /chat/{id} does.
        expect(follow).toEqual(await ok<Chat>(await request('GET', `/chat/${followUp.id}`)));
        expect(follow.output).toHaveLength(1);

        const index = await ok<ChatPage>(
          await request('GET', `/chat?assistantId=${INDEX}&createdAtGe=${since}`),
        );
        expect(index.results.map((c) => c.id)).toEqual([third.id, followUp.id, first.id]);
        const session = await ok<ChatPage>(await request('GET', `/chat?sessionId=${first.sessionId}`));
        expect(session.results.map((c) => c.id)).toEqual([followUp.id, first.id]);
        const any = await ok<ChatPage>(
          await request('GET', `/chat?assistantIdAny=${OTHER},nobody&createdAtGe=${since}`),
        );
        expect(any.results.map((c) => c.id)).toEqual([other.id]);
        const ids = await ok<ChatPage>(await request('GET', `/chat?idAny=${first.id},${third.id}`));
        expect(ids.results.map((c) => c.id)).toEqual([third.id, first.id]);
        const before = await ok<ChatPage>(
          await request('GET', `/chat?createdAtGe=${since}&createdAtLt=${all.results[1]!.createdAt}`),
        );
        expect(before.results.map((c) => c.id)).toEqual([followUp.id, first.id]);

        // Pages of two, oldest first when asked.
        const page1 = await ok<ChatPage>(
          await request('GET', `/chat?createdAtGe=${since}&limit=2&sortOrder=ASC`),
        );
        const page2 = await ok<ChatPage>(
          await request('GET', `/chat?createdAtGe=${since}&limit=2&page=2&sortOrder=ASC`),
        );
        const page3 = await ok<ChatPage>(
          await request('GET', `/chat?createdAtGe=${since}&limit=2&page=3&sortOrder=ASC`),
        );
        expect(page1.results.map((c) => c.id)).toEqual([first.id, followUp.id]);
        expect(page2.results.map((c) => c.id)).toEqual([other.id, third.id]);
        expect(page3.results).toEqual([]);
        expect(page1.metadata).toMatchObject({
          itemsPerPage: 2,
          totalItems: 4,
          currentPage: 1,
          totalPages: 2,
          hasNextPage: true,
          sortOrder: 'ASC',
        });
        expect(page2.metadata).toMatchObject({ currentPage: 2, hasNextPage: false });
      });

      it.each([
        ['limit=1001', 'limit'],
        ['limit=1e9', 'limit'],
        ['page=0', 'page'],
        ['page=1.5', 'page'],
        ['page=100001', 'page'],
        ['sortOrder=sideways', 'sortOrder'],
        ['sortBy=name', 'sortBy'],
        ['createdAtGt=not-a-date', 'createdAtGt'],
        ['createdAtLt=2026-02-30T00:00:00Z', 'createdAtLt'],
        ['idAny=' + Array.from({ length: 101 }, (_, i) => `c${i}`).join(','), 'idAny'],
        ['assistantIdAny=,,,', 'assistantIdAny'],
        ['search=refunds', 'search'],
      ])('refuses %s with 400 naming it', async (query, name) => {
        const res = await request('GET', `/chat?${query}`);
        const body = (await res.json()) as { message: string[]; statusCode: number };
        expect(res.status).toBe(400);
        expect(body.statusCode).toBe(400);
        expect(body.message.join(' ')).toContain(name);
      });

      it('treats SQL in a filter as a value', async () => {
        const sql = encodeURIComponent("x' or '1'='1");
        const page = await ok<ChatPage>(await request('GET', `/chat?sessionId=${sql}&idAny=${sql},y`));
        expect(page).toMatchObject({ results: [], metadata: { totalItems: 0 } });
      });
    });

    describe('deleting a conversation', () => {
      it('DELETE /chat/{id} removes the chat and its messages, then its emptied session', async () => {
        t += 60_000;
        const first = await webChat({ assistantId: INDEX, input: 'My email is ada@example.com. Hi!' });
        t += 1000;
        const second = await webChat({ sessionId: first.sessionId, input: 'Thanks' });

        const deleted = await ok<Chat>(await request('DELETE', `/chat/${first.id}`));
        expect(deleted).toMatchObject({ id: first.id, input: 'My email is ada@example.com. Hi!' });
        expect((await request('GET', `/chat/${first.id}`)).status).toBe(404);
        expect((await request('DELETE', `/chat/${first.id}`)).status).toBe(404);
        // Its messages are gone from the history of the chat after it, and from every list.
        const left = await ok<Chat>(await request('GET', `/chat/${second.id}`));
        expect(JSON.stringify(left)).not.toContain('ada@example.com');
        const listed = await ok<ChatPage>(await request('GET', `/chat?sessionId=${first.sessionId}`));
        expect(listed.results.map((c) => c.id)).toEqual([second.id]);

        await ok(await request('DELETE', `/chat/${second.id}`));
        const sessions = await db.query('select 1 from emulator_chat_sessions where id = $1', [
          first.sessionId,
        ]);
        expect(sessions.rows).toEqual([]);
        expect(await ok<ChatPage>(await request('GET', `/chat?sessionId=${first.sessionId}`))).toMatchObject({
          results: [],
          metadata: { totalItems: 0 },
        });
      });

      it('DELETE /call/{id} removes the call with its messages', async () => {
        const { id } = await ok<{ id: string }>(
          await request('POST', '/call/web', keys.publicKey, { assistantId: INDEX }),
          201,
        );
        const deleted = await ok<Call>(await request('DELETE', `/call/${id}`));
        expect(deleted).toMatchObject({ id, assistantId: INDEX });
        expect((await request('GET', `/call/${id}`)).status).toBe(404);
        expect((await request('DELETE', `/call/${id}`)).status).toBe(404);
        expect(await ok<Call[]>(await request('GET', `/call?id=${id}`))).toEqual([]);
        expect((await db.query('select 1 from emulator_calls where id = $1', [id])).rows).toEqual([]);
      });

      it("refuses the provider's bulk delete and a malformed body, deleting nothing", async () => {
        const { id } = await ok<{ id: string }>(
          await request('POST', '/call/web', keys.publicKey, { assistantId: INDEX }),
          201,
        );
        expect((await request('DELETE', `/call/${id}`, keys.privateKey, { ids: [id] })).status).toBe(501);
        expect((await request('DELETE', `/call/${id}`, keys.privateKey, { id })).status).toBe(400);
        expect((await request('DELETE', `/call/${id}?force=true`)).status).toBe(400);
        expect((await request('GET', `/call/${id}`)).status).toBe(200);
        // An explicit empty body is the same as none.
        expect((await request('DELETE', `/call/${id}`, keys.privateKey, {})).status).toBe(200);
      });
    });

    describe('who may read and delete conversations', () => {
      it('refuses the public keys and public tokens (401), and keys it does not know', async () => {
        const chat = await webChat({ assistantId: INDEX, input: 'Hello' });
        const call = await ok<{ id: string }>(
          await request('POST', '/call/web', keys.publicKey, { assistantId: INDEX }),
          201,
        );
        const publicToken = await ok<{ value: string }>(
          await request('POST', '/token', keys.privateKey, { tag: 'public' }),
          201,
        );
        const privateToken = await ok<{ value: string }>(
          await request('POST', '/token', keys.privateKey, { tag: 'private' }),
          201,
        );
        const routes: [string, string][] = [
          ['GET', '/call'],
          ['GET', `/call/${call.id}`],
          ['DELETE', `/call/${call.id}`],
          ['GET', '/chat'],
          ['GET', `/chat/${chat.id}`],
          ['DELETE', `/chat/${chat.id}`],
        ];
        for (const key of [keys.publicKey, publicToken.value, 'sk-guessed', null])
          for (const [method, path] of routes)
            expect((await request(method, path, key)).status, `${method} ${path} with ${key}`).toBe(401);
        // Nothing was deleted by those; a private token may read them.
        expect((await request('GET', `/chat/${chat.id}`, privateToken.value)).status).toBe(200);
        expect((await request('GET', `/call/${call.id}`, privateToken.value)).status).toBe(200);
      });
    });

    describe('retention', () => {
      afterEach(() => {
        vi.useRealTimers();
      });

      it('prunes exactly the calls and chats created before the cutoff, with their sessions', async () => {
        const pruneAt = Date.parse('2030-01-01T00:00:00Z');
        const cutoff = conversationCutoff(new Date(pruneAt), 30);
        const at = async (when: number, make: () => Promise<{ id: string }>) => {
          t = when;
          return make();
        };
        const call = () =>
          request('POST', '/call/web', keys.publicKey, { assistantId: INDEX }).then((r) =>
            ok<{ id: string }>(r, 201),
          );
        const chat = () => webChat({ assistantId: INDEX, input: 'Hi' });
        const oldCall = await at(cutoff.getTime() - 1, call);
        const edgeCall = await at(cutoff.getTime(), call);
        const oldChat = await at(cutoff.getTime() - 1, chat);
        const edgeChat = await at(cutoff.getTime(), chat);
        // A long session: its old exchange goes, the session stays with the newer one.
        const longOld = await at(cutoff.getTime() - 5000, chat);
        const longNew = await at(cutoff.getTime() + 5000, () =>
          webChat({ sessionId: (longOld as { sessionId?: string }).sessionId as string, input: 'Again' }),
        );

        const counts = await pruneConversations(db, cutoff);
        expect(counts.calls).toBeGreaterThanOrEqual(1);
        const exists = async (table: string, id: string) =>
          (await db.query(`select 1 from ${table} where id = $1`, [id])).rows.length === 1;
        expect(await exists('emulator_calls', oldCall.id)).toBe(false);
        expect(await exists('emulator_calls', edgeCall.id)).toBe(true);
        expect(await exists('emulator_chats', oldChat.id)).toBe(false);
        expect(await exists('emulator_chats', edgeChat.id)).toBe(true);
        expect(await exists('emulator_chats', longOld.id)).toBe(false);
        expect(await exists('emulator_chats', longNew.id)).toBe(true);
        const sessionOf = (c: { id: string }) => (c as { sessionId?: string }).sessionId as string;
        expect(await exists('emulator_chat_sessions', sessionOf(oldChat))).toBe(false);
        expect(await exists('emulator_chat_sessions', sessionOf(longOld))).toBe(true);
        // Nothing newer than the cutoff is left older than it.
        const older = await db.query('select 1 from emulator_calls where created_at < $1', [cutoff]);
        expect(older.rows).toEqual([]);
        expect((await request('GET', `/call/${oldCall.id}`)).status).toBe(404);
        expect((await request('GET', `/chat/${oldChat.id}`)).status).toBe(404);
      });

      it('prunes calls past conversationDays when a call is stored', async () => {
        const url = await start({ conversationDays: 1 });
        const make = async () =>
          ok<{ id: string }>(
            await fetch(`${url}/call/web`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${keys.publicKey}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ assistantId: INDEX }),
            }),
            201,
          );
        t = Date.parse('2032-01-01T00:00:00Z');
        const old = await make();
        t += 86_400_000;
        const kept = await make();
        expect((await request('GET', `/call/${old.id}`)).status).toBe(200);
        t += 1;
        await make();
        expect((await request('GET', `/call/${old.id}`)).status).toBe(404);
        expect((await request('GET', `/call/${kept.id}`)).status).toBe(200);
      });

      it('runs at start and every hour on its timer, with the cutoff of each moment', async () => {
        vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
        let now = Date.parse('2031-01-01T00:00:00Z');
        t = now - 30 * 86_400_000 - 1000;
        const before = await webChat({ assistantId: INDEX, input: 'old' });
        t = now - 30 * 86_400_000 + 30 * 60_000;
        const later = await webChat({ assistantId: INDEX, input: 'half an hour younger' });
        const retention = scheduleConversationRetention({ db, days: 30, now: () => new Date(now) });
        try {
          await retention.runOnce();
          expect((await request('GET', `/chat/${before.id}`)).status).toBe(404);
          expect((await request('GET', `/chat/${later.id}`)).status).toBe(200);
          now += 60 * 60_000;
          await vi.advanceTimersByTimeAsync(60 * 60_000);
          await retention.runOnce();
          expect((await request('GET', `/chat/${later.id}`)).status).toBe(404);
        } finally {
          await retention.stop();
        }
      });
    });
  });
}
