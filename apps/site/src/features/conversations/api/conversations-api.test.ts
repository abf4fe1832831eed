import { describe, expect, it } from 'vitest';
import { parseAnswers } from '../lib/answers-doc';
import { toConversations, type ProviderCall, type ProviderChat } from '../lib/conversation';
import { EMPTY_FILTERS } from '../lib/filters';
import { providerFixture } from '../testing/provider-fixture';
import { createConversationsApi } from './conversations-api';

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
    getToken: () => 'token',
    fetch: fixture.fetch,
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

  it('creates the Answers document and its tool on the assistant, keeping the model and other tools', async () => {
    const fixture = providerFixture();
    const api = apiOver(fixture);
    await api.saveAnswer('asst-index', 'Where do I park?', 'Behind the building.');
    const model = fixture.assistants.get('asst-index')!.model;
    expect(model.provider).toBe('openai');
    expect(model.toolIds).toHaveLength(2);
    const tool = fixture.tools.get((model.toolIds as string[])[1]!)!;
    const kb = (tool.knowledgeBases as { name: string; fileIds: string[] }[])[0]!;
    expect(kb.name).toBe('Answers');
    expect(fixture.files.get(kb.fileIds[0]!)?.name).toBe('Answers.md');
    expect(await api.answeredQuestions(['asst-index'])).toEqual(
      new Map([['asst-index', new Set(['where do i park'])]]),
    );
  });

  it('updates it by uploading the new version, replacing the file id on the tool and deleting the old file', async () => {
    const fixture = providerFixture();
    const api = apiOver(fixture);
    await api.saveAnswer('asst-index', 'Where do I park?', 'Behind the building.');
    const [firstFile] = [...fixture.files.keys()];
    await api.saveAnswer('asst-index', 'Gift cards?', 'Yes, at the desk.');
    expect(fixture.files.has(firstFile!)).toBe(false);
    const [file] = [...fixture.files.values()];
    expect(parseAnswers(file!.text).map((e) => e.question)).toEqual(['Where do I park?', 'Gift cards?']);
    const answersTools = [...fixture.tools.values()].filter((t) => t.type === 'query');
    expect(answersTools).toHaveLength(1);
    expect((answersTools[0]!.knowledgeBases as { fileIds: string[] }[])[0]!.fileIds).toEqual([file!.id]);
    expect(fixture.assistants.get('asst-index')!.model.toolIds).toHaveLength(2);
  });

  it('removes the new upload and changes nothing when the tool cannot be updated', async () => {
    const fixture = providerFixture();
    const api = apiOver(fixture);
    fixture.assistants.delete('asst-index');
    await expect(api.saveAnswer('asst-index', 'Q?', 'A.')).rejects.toMatchObject({ status: 404 });
    expect(fixture.files.size).toBe(0);
  });
});
