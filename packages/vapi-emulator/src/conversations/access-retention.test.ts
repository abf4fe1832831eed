import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pruneConversations, conversationCutoff, scheduleConversationRetention } from '@engage/vapi-emulator';
import { keys, INDEX, useConversationEmulator } from './conversations-harness.js';

for (const target of testDbTargets()) {
  describe(`conversations at the embedded provider: access and retention (${target.name})`, () => {
    /** The emulator's clock (rooms use the wall clock for message times, as the provider does). */
    let t = Date.now();
    const h = useConversationEmulator(target, () => new Date(t));
    const { start, request, ok, webChat } = h;
    let db: Db;
    beforeAll(() => void ({ db } = h));

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
