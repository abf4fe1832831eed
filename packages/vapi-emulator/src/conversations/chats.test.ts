import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { componentProblems } from '@engage/vapi-emulator/testing';
import {
  keys,
  INDEX,
  OTHER,
  type Call,
  type Chat,
  type ChatPage,
  useConversationEmulator,
} from './conversations-harness.js';

for (const target of testDbTargets()) {
  describe(`conversations at the embedded provider: GET /chat and deleting (${target.name})`, () => {
    /** The emulator's clock (rooms use the wall clock for message times, as the provider does). */
    let t = Date.now();
    const h = useConversationEmulator(target, () => new Date(t));
    const { request, ok, webChat } = h;
    let db: Db;
    beforeAll(() => void ({ db } = h));

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
  });
}
