import { toConversations, type ProviderCall, type ProviderChat } from '@engage/http-contract/conversations';
import { describe, expect, it } from 'vitest';
import { createEngageApi } from '@/lib/engage-api';
import { EMPTY_FILTERS } from '../lib/filters';
import { providerFixture } from '../testing/provider-fixture';
import { createConversationsApi, mergePage } from './conversations-api';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const call = (id: string, s: number): ProviderCall => ({
  id,
  createdAt: at(s),
  assistantId: 'asst-index',
  messages: [{ role: 'user', message: `call ${id}`, time: T0 + s * 1000, secondsFromStart: 0 }],
});
const chat = (id: string, s: number, sessionId = `s-${id}`): ProviderChat => ({
  id,
  createdAt: at(s),
  assistantId: 'asst-index',
  sessionId,
  input: `chat ${id}`,
  output: [{ role: 'assistant', content: "I don't know that from my documents." }],
});

const apiOver = (fixture: ReturnType<typeof providerFixture>) =>
  createConversationsApi({
    baseUrl: 'https://site.test/api/provider',
    server: createEngageApi({
      getAccessToken: () => 'token',
      fetch: fixture.fetch,
      origin: 'https://site.test',
    }),
  });

describe('the conversations API over the provider routes', () => {
  it('pages through calls and chats together, newest first, with no row twice or missed', async () => {
    const fixture = providerFixture({
      calls: Array.from({ length: 30 }, (_, i) => call(`c${i}`, i * 2)),
      chats: Array.from({ length: 30 }, (_, i) => chat(`h${i}`, i * 2 + 1)),
    });
    const api = apiOver(fixture);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await api.listPage(EMPTY_FILTERS, cursor, { pageSize: 25 });
      seen.push(...toConversations(page.calls, page.chats).map((c) => c.ids[0]!));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    expect(seen.slice(0, 3)).toEqual(['h29', 'c29', 'h28']);
    expect(pages).toBe(3);
    // The provider's own parameters: createdAtLt for the next page, page/sortOrder for chats.
    const chatRequest = fixture.requests.find((r) => r.path === '/chat' && r.query.createdAtLt)!;
    expect(chatRequest.query).toMatchObject({ page: '1', sortOrder: 'DESC', limit: '25' });
  });

  it('asks only for calls or chats when the kind says so, with the assistant filter', async () => {
    const fixture = providerFixture({ calls: [call('c1', 1)], chats: [chat('h1', 2)] });
    const page = await apiOver(fixture).listPage(
      { ...EMPTY_FILTERS, kind: 'voice', assistantId: 'asst-index' },
      null,
    );
    expect(page.chats).toEqual([]);
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /call']);
    expect(fixture.requests[0]!.query.assistantId).toBe('asst-index');
  });

  it('reads and deletes every chat of a session, also those not loaded', async () => {
    const fixture = providerFixture({ chats: [chat('a', 1, 's1'), chat('b', 2, 's1'), chat('x', 3, 's2')] });
    const api = apiOver(fixture);
    const listed = toConversations([], [fixture.chats[1]!])[0]!;
    const whole = await api.getConversation(listed);
    expect(whole.ids).toEqual(['a', 'b']);
    await api.deleteConversation(listed);
    expect(fixture.chats.map((c) => c.id)).toEqual(['x']);
  });

  it('saves an answer through the server (POST /api/conversations/answers, with the token), not the proxy', async () => {
    const fixture = providerFixture();
    const api = apiOver(fixture);
    await api.saveAnswer('asst-index', 'Where do I park?', 'Behind the building.');
    expect(fixture.answers).toEqual([
      { assistantId: 'asst-index', question: 'Where do I park?', answer: 'Behind the building.' },
    ]);
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/conversations/answers']);
    expect(fixture.files.size).toBe(0);
  });

  it("rejects with the server's message and status when the save is refused", async () => {
    const fixture = providerFixture();
    const api = apiOver(fixture);
    await expect(api.saveAnswer('no-such-assistant', 'Q?', 'A.')).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('This site offers no assistant "no-such-assistant"'),
    });
  });

  it("reads the unanswered questions from the server's scan in one request", async () => {
    const fixture = providerFixture({ chats: [chat('a', 1), chat('b', 2)] });
    const api = apiOver(fixture);
    const { questions, scanned } = await api.unansweredQuestions();
    expect(questions.map((q) => q.question)).toEqual(['chat b', 'chat a']);
    expect(scanned).toBe(2);
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/conversations/unanswered',
    ]);
  });

  it('keeps no call older than a chat page cut short, so the next page misses no chat', () => {
    // The provider answered 2 chats of the 100 asked (its answer size cap), with more to come.
    const page = mergePage(
      [call('c1', 9), call('c2', 1)],
      [chat('h1', 8), chat('h2', 5)],
      { calls: false, chats: true },
      100,
    );
    expect(page.calls.map((c) => c.id)).toEqual(['c1']);
    expect(page.chats.map((c) => c.id)).toEqual(['h1', 'h2']);
    expect(page.nextCursor).toBe(at(5));
  });
});
