import { testDbTargets } from '@engage/db/testing';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { NO_DOCUMENTS, CALL_MESSAGE_LIMITS, type EmulatorCallDirectory } from '@engage/vapi-emulator';
import { componentProblems } from '@engage/vapi-emulator/testing';
import {
  keys,
  INDEX,
  OTHER,
  GREETING,
  type Call,
  fastRoomClock,
  useConversationEmulator,
} from './conversations-harness.js';

for (const target of testDbTargets()) {
  describe(`conversations at the embedded provider: a web call and GET /call (${target.name})`, () => {
    /** The emulator's clock (rooms use the wall clock for message times, as the provider does). */
    let t = Date.now();
    // The rooms' own clock runs fast: the greeting and the answer are spoken without real-time waits.
    const h = useConversationEmulator(target, () => new Date(t), fastRoomClock());
    const { start, request, ok, count } = h;

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
  });
}
