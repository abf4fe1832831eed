import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_RETENTION_MS,
  CHAT_LIMITS,
  createVapiEmulator,
  emulatorMigrations,
  INLINE_ASSISTANT_MAX_BYTES,
  SEEDED_ASSISTANT_IDS,
} from '@engage/vapi-emulator';

// What callers of the public key can make the emulator store is bounded. A chat
// stores its own messages once (not the session's history again), a session keeps a bounded
// history, calls are pruned by age and count, and an inline assistant is size-capped.

const keys = { publicKey: 'pk-quotas', privateKey: 'sk-quotas' };
const MAX_CALLS = 5;

/** Text of `n` characters that does not compress to nothing (the sizes below are logical anyway). */
const text = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7 + seed) % 26))).join('');

for (const target of testDbTargets()) {
  describe(`emulator storage quotas (${target.name})`, () => {
    let db: Db;
    let server: ServerType;
    let base: string;
    let t = Date.parse('2026-11-25T09:00:00Z');

    beforeAll(async () => {
      db = await target.open(emulatorMigrations);
      const emulator = createVapiEmulator({
        db,
        keys,
        now: () => new Date(t),
        maxStoredCalls: MAX_CALLS,
        // The per-address rate is not what is tested here.
        clientAddress: () => undefined,
      });
      server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    });

    const post = (route: string, body: unknown, key = keys.publicKey) =>
      fetch(`${base}${route}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
    const one = async (sql: string, params: unknown[] = []) =>
      Number((await db.query<{ n: string | null }>(sql, params)).rows[0]!.n ?? 0);
    /** Bytes of everything the chat tables hold, as text (independent of compression). */
    const chatBytes = () =>
      one(`select (select coalesce(sum(octet_length(c::text)), 0) from emulator_chats c)
                + (select coalesce(sum(octet_length(s::text)), 0) from emulator_chat_sessions s) as n`);

    it('stores each chat message once: 30 exchanges of two 10,000-character messages stay near their own size', async () => {
      const before = await chatBytes();
      let sessionId: string | undefined;
      for (let i = 0; i < 30; i++) {
        const res = await post('/chat/web', {
          ...(sessionId
            ? { sessionId }
            : { assistantId: SEEDED_ASSISTANT_IDS.index, sessionExpirationSeconds: 2_592_000 }),
          input: [
            { role: 'user', content: text(10_000, i) },
            { role: 'user', content: text(10_000, i + 1) },
          ],
        });
        expect(res.status).toBe(201);
        sessionId = ((await res.json()) as { sessionId: string }).sessionId;
      }
      // 30 × 20,000 characters sent; each stored once, with its answer and the row's overhead.
      const grown = (await chatBytes()) - before;
      expect(grown).toBeGreaterThan(30 * 20_000);
      expect(grown).toBeLessThan(30 * 25_000);
    });

    it(`keeps a session's history to its newest ${CHAT_LIMITS.maxSessionMessages} messages`, async () => {
      let sessionId: string | undefined;
      let last = '';
      for (let i = 0; i < CHAT_LIMITS.maxSessionMessages + 10; i++) {
        const res = await post(
          '/chat',
          {
            ...(sessionId ? { sessionId } : { assistantId: SEEDED_ASSISTANT_IDS.index }),
            input: `Question ${i}`,
          },
          keys.privateKey,
        );
        const chat = (await res.json()) as { id: string; sessionId: string; messages: { content: string }[] };
        sessionId = chat.sessionId;
        last = chat.id;
        if (i === 1) expect(chat.messages.map((m) => m.content)[0]).toBe('Question 0');
      }
      const kept = await one('select count(*) as n from emulator_chats where session_id = $1', [sessionId]);
      expect(kept).toBeLessThanOrEqual(CHAT_LIMITS.maxSessionMessages);
      const chat = (await (
        await fetch(`${base}/chat/${last}`, { headers: { Authorization: `Bearer ${keys.privateKey}` } })
      ).json()) as { messages: { content: string }[] };
      expect(chat.messages).toHaveLength(CHAT_LIMITS.maxSessionMessages);
      // The newest history, in order, ending with the exchange before this one.
      expect(chat.messages.at(-2)?.content).toBe(`Question ${CHAT_LIMITS.maxSessionMessages + 8}`);
    });

    it(`keeps at most ${MAX_CALLS} calls, the newest, and none past the retention`, async () => {
      const ids: string[] = [];
      for (let i = 0; i < MAX_CALLS + 3; i++) {
        t += 1000;
        const res = await post('/call/web', { assistantId: SEEDED_ASSISTANT_IDS.index });
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      }
      const { rows } = await db.query<{ id: string }>('select id from emulator_calls');
      expect(rows.map((r) => r.id).sort()).toEqual(ids.slice(-MAX_CALLS).sort());

      t += CALL_RETENTION_MS + 1000;
      await post('/call/web', { assistantId: SEEDED_ASSISTANT_IDS.index });
      expect(await one('select count(*) as n from emulator_calls')).toBe(1);
    });

    it.each([
      ['POST /call/web', '/call/web', { assistant: { firstMessage: 'x'.repeat(900_000) } }],
      ['POST /chat/web', '/chat/web', { assistant: { firstMessage: 'x'.repeat(900_000) }, input: 'Hi' }],
      [
        'POST /call/web (overrides)',
        '/call/web',
        {
          assistantId: SEEDED_ASSISTANT_IDS.index,
          assistantOverrides: { firstMessage: 'x'.repeat(900_000) },
        },
      ],
      [
        'POST /call',
        '/call',
        {
          assistant: { firstMessage: 'x'.repeat(900_000) },
          transport: { provider: 'vapi.websocket', audioFormat: { format: 'pcm_s16le', sampleRate: 16_000 } },
        },
      ],
    ])('refuses a 900 KB inline assistant on %s with 400, storing nothing', async (_, route, body) => {
      const calls = await one('select count(*) as n from emulator_calls');
      const sessions = await one('select count(*) as n from emulator_chat_sessions');
      // With the private key, so no public-key restriction is what refuses it.
      const res = await post(route, body, keys.privateKey);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(`at most ${INLINE_ASSISTANT_MAX_BYTES} bytes`);
      expect(await one('select count(*) as n from emulator_calls')).toBe(calls);
      expect(await one('select count(*) as n from emulator_chat_sessions')).toBe(sessions);
    });
  });
}
