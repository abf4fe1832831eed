import { testDbTargets } from '@engage/db/testing';
import { createVapiClient } from '@engage/vapi-client';
import { describe, expect, it, vi } from 'vitest';
import { conversationServer, INDEX } from './conversations-harness.js';
import { statsRoutes } from './stats-routes.js';
import { fillDays } from './stats.js';

// GET /api/conversations/stats: conversations per day, the share the assistant could not answer,
// visitors waiting and answers mailed, from an index the server keeps up to date from the provider.

interface Stats {
  days: number;
  perDay: { day: string; calls: number; chats: number; unanswered: number; mailed: number }[];
  totals: {
    conversations: number;
    chats: number;
    unanswered: number;
    unansweredShare: number;
    waiting: number;
    mailed: number;
  };
}

describe('fillDays', () => {
  it('gives every day of the period, oldest first, with 0 for the days without conversations', () => {
    const now = Date.parse('2026-11-29T15:00:00Z');
    expect(fillDays(3, now, [{ day: '2026-11-28', chats: 2 }])).toEqual([
      { day: '2026-11-27', calls: 0, chats: 0, unanswered: 0, mailed: 0 },
      { day: '2026-11-28', calls: 0, chats: 2, unanswered: 0, mailed: 0 },
      { day: '2026-11-29', calls: 0, chats: 0, unanswered: 0, mailed: 0 },
    ]);
  });
});

for (const target of testDbTargets()) {
  describe(`conversation stats (${target.name})`, () => {
    const conv = conversationServer(target);

    it('counts the conversations, the unanswered share, the visitors waiting and the answers mailed', async () => {
      const first = await conv.api.ask('Do you open on Sundays?');
      await conv.api.ask('Can I pay by card?');
      expect((await conv.api.requestAnswer(first.id, 'stats@example.com')).status).toBe(201);
      const read = async () =>
        conv.api.ok<Stats>(await conv.api.send('GET', '/api/conversations/stats?days=7', 'operator-token'));
      const before = await read();
      expect(before.days).toBe(7);
      expect(before.perDay).toHaveLength(7);
      expect(before.totals).toMatchObject({
        conversations: 2,
        chats: 2,
        unanswered: 2,
        unansweredShare: 1,
        waiting: 1,
        mailed: 0,
      });
      expect(before.perDay.at(-1)).toMatchObject({ chats: 2, unanswered: 2 });

      await conv.api.ok(await conv.api.saveAnswer('Do you open on Sundays?', 'Yes.'));
      const after = await read();
      expect(after.totals).toMatchObject({ waiting: 0, mailed: 1 });
      expect(after.perDay.at(-1)!.mailed).toBe(1);

      // A conversation deleted through Engage leaves the counts at once.
      expect((await conv.api.send('DELETE', `/api/provider/chat/${first.id}`, 'operator-token')).status).toBe(
        200,
      );
      expect((await read()).totals.chats).toBe(1);
    });

    it('is for operators and admins, and refuses a period it cannot give', async () => {
      expect((await conv.api.send('GET', '/api/conversations/stats', 'user-token')).status).toBe(403);
      expect((await conv.api.send('GET', '/api/conversations/stats', null)).status).toBe(401);
      for (const days of ['0', '91', 'abc', '1.5']) {
        const res = await conv.api.send('GET', `/api/conversations/stats?days=${days}`, 'admin-token');
        expect(res.status, days).toBe(400);
        expect(await res.json()).toMatchObject({ error: 'validation_failed', field: 'days' });
      }
      expect(
        (await conv.api.ok<Stats>(await conv.api.send('GET', '/api/conversations/stats', 'admin-token')))
          .days,
      ).toBe(30);
    });

    it('does not keep the page waiting for a long first read: the figures fill in once it has ended', async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = createVapiClient({
        baseUrl: `${conv.server.origin}/provider`,
        token: conv.server.keys.emulatorPrivateKey!,
        fetch: async (input, init) => {
          await held;
          return fetch(input, init);
        },
      });
      await conv.db.query('delete from conversation_index');
      await conv.api.ask('Is the museum open late?');
      const app = statsRoutes({
        db: conv.db,
        vapi: slow,
        siteAssistantIds: [INDEX],
        phrases: undefined,
        syncWaitMs: 50,
      });
      const read = async () =>
        (await (await app.request('/stats?days=7')).json()) as Stats & { indexedAt: string | null };
      const first = await read();
      expect(first.indexedAt).toBeNull();
      expect(first.totals.chats).toBe(0);
      release();
      await vi.waitFor(async () => expect((await read()).indexedAt).not.toBeNull(), { timeout: 5_000 });
      expect((await read()).totals.chats).toBeGreaterThan(0);
    });

    it('reads the provider again only after a while, and then only what is new', async () => {
      let now = Date.now();
      const reads: string[] = [];
      const counted = createVapiClient({
        baseUrl: `${conv.server.origin}/provider`,
        token: conv.server.keys.emulatorPrivateKey!,
        fetch: async (input, init) => {
          const request = new Request(input, init);
          reads.push(new URL(request.url).search);
          return fetch(request);
        },
      });
      const app = statsRoutes({
        db: conv.db,
        vapi: counted,
        siteAssistantIds: [INDEX],
        phrases: undefined,
        now: () => now,
      });
      const chats = async () => ((await (await app.request('/stats?days=7')).json()) as Stats).totals.chats;
      const start = await chats();
      await conv.api.ask('Is there a lift?');
      expect(await chats()).toBe(start); // within the half minute: the index as it was
      const readsBefore = reads.length;
      now += 31_000;
      expect(await chats()).toBe(start + 1);
      // Only what is newer than the index (less an hour) was asked for.
      expect(reads.slice(readsBefore).every((q) => q.includes('createdAtGe='))).toBe(true);
    });
  });
}
