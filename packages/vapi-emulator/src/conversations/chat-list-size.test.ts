import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { INDEX, keys, type ChatPage, useConversationEmulator } from './conversations-harness.js';

// GET /chat?limit=1000 is what the document allows, and each chat carries its session's history (up
// to 50 messages of 10 000 characters): a page of them could come to hundreds of megabytes. The
// embedded provider cuts a page short past maxChatListBytes (8 MiB by default; 600 kB here), says so
// with hasNextPage, and the created-at bound reads on from there without missing a chat.

const CAP = 600_000;
const [pglite] = testDbTargets();

describe('GET /chat answer size (embedded provider)', () => {
  let t = Date.parse('2026-11-20T09:00:00Z');
  const h = useConversationEmulator(pglite!, () => new Date(t));

  it('never answers more than the cap, however large the chats and the limit', async () => {
    const base = await h.start({ maxChatListBytes: CAP });
    const get = async (query: string) => {
      const res = await fetch(`${base}/chat?${query}`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      return { bytes: Buffer.byteLength(text), page: JSON.parse(text) as ChatPage };
    };
    // The worst case of a session: each chat asks the longest question (multi-byte characters) and
    // carries every earlier one in its history.
    const question = 'é'.repeat(9_999);
    let sessionId: string | undefined;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      t += 1000;
      const res = await fetch(`${base}/chat`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(
          sessionId ? { sessionId, input: question } : { assistantId: INDEX, input: question },
        ),
      });
      const chat = (await res.json()) as { id: string; sessionId: string };
      expect(res.status).toBe(201);
      sessionId = chat.sessionId;
      ids.unshift(chat.id);
    }

    const first = await get('limit=1000');
    expect(first.bytes).toBeLessThanOrEqual(CAP);
    expect(first.page.results.length).toBeGreaterThan(0);
    expect(first.page.results.length).toBeLessThan(ids.length);
    expect(first.page.metadata).toMatchObject({ hasNextPage: true, itemsPerPage: first.page.results.length });

    // Reading on with createdAtLt (as the site and the server do) finds every chat once, each page capped.
    const seen = first.page.results.map((c) => c.id);
    let last = first.page.results.at(-1)!.createdAt;
    for (let guard = 0; guard < ids.length && seen.length < ids.length; guard++) {
      const next = await get(`limit=1000&createdAtLt=${encodeURIComponent(last)}`);
      expect(next.bytes).toBeLessThanOrEqual(CAP);
      seen.push(...next.page.results.map((c) => c.id));
      last = next.page.results.at(-1)!.createdAt;
    }
    expect(seen).toEqual(ids);
  });

  it('answers a page under the cap whole, as the document describes it', async () => {
    const small = await h.ok<ChatPage>(await h.request('GET', '/chat?limit=2'));
    expect(small.metadata).toMatchObject({ itemsPerPage: 2 });
  });
});
