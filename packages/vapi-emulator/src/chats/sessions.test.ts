import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { DONT_KNOW, NO_DOCUMENTS, type EmulatorCallDirectory } from '@engage/vapi-emulator';
import { keys, useChatEmulator, type WebChat } from './chat-harness.js';

for (const target of testDbTargets()) {
  describe(`chats with the local assistant: sessions, bad requests and limits (${target.name})`, () => {
    let t = Date.parse('2026-11-24T09:00:00Z');
    const h = useChatEmulator(target, { now: () => new Date(t), advance: (ms) => void (t += ms) });
    const { start, send, created, webChat } = h;
    let db: Db;
    let base: string;
    let assistantId: string;
    beforeAll(() => void ({ db, base, assistantId } = h));

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
        'From Refunds: "Refunds are paid to the original card within 14 days of the return."',
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
