import {
  normaliseQuestion,
  toConversations,
  unansweredQuestions,
  type ProviderCall,
  type AnswerRequestView,
  type ProviderChat,
} from '@engage/http-contract/conversations';

/**
 * An HTTP fixture of the provider's conversation, assistant, tool and file routes, in the shapes of
 * its OpenAPI document (GET /call: an array; GET /chat: ChatPaginatedResponse), served through a
 * `fetch` so the page's real client code runs against it. The server's own /api/conversations
 * routes are there too, in short (the unanswered questions of every chat and call here; answers
 * kept in `answers`; the server's test covers the real ones). It records every request.
 */
export function providerFixture(
  seed: {
    calls?: ProviderCall[];
    chats?: ProviderChat[];
    /** Visitors waiting for an answer by mail. */
    answerRequests?: AnswerRequestView[];
    /** Answer mails fail (an SMTP server that is down) until this is set to false. */
    mailFails?: boolean;
  } = {},
) {
  const answerRequests = [...(seed.answerRequests ?? [])];
  const mail = { fails: seed.mailFails ?? false };
  const mailTo = (request: AnswerRequestView) => {
    if (mail.fails) request.sendError = 'connect ECONNREFUSED 127.0.0.1:25';
    else Object.assign(request, { sentAt: new Date().toISOString(), sendError: null });
    return !mail.fails;
  };
  const calls = [...(seed.calls ?? [])];
  const chats = [...(seed.chats ?? [])];
  const assistants = new Map<string, { id: string; name: string; model: Record<string, unknown> }>([
    [
      'asst-index',
      { id: 'asst-index', name: 'Index Assistant', model: { provider: 'openai', toolIds: ['t-other'] } },
    ],
  ]);
  const tools = new Map<string, Record<string, unknown> & { id: string }>([
    ['t-other', { id: 't-other', type: 'function', function: { name: 'other' } }],
  ]);
  const files = new Map<string, { id: string; name: string; text: string }>();
  /** The answers saved through POST /api/conversations/answers. */
  const answers: { assistantId: string; question: string; answer: string }[] = [];
  /** The questions dismissed through POST /api/conversations/dismissed. */
  const dismissed: { assistantId: string; question: string }[] = [];
  const requests: { method: string; path: string; query: Record<string, string>; body?: unknown }[] = [];
  let seq = 0;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const notFound = () => json({ message: 'Not Found', statusCode: 404 }, 404);
  const newest = <T extends { createdAt: string }>(list: T[]) =>
    [...list].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  const inRange = (q: Record<string, string>) => (item: { createdAt: string; assistantId?: string }) =>
    (!q.assistantId || item.assistantId === q.assistantId) &&
    (!q.createdAtLt || item.createdAt < q.createdAtLt) &&
    (!q.createdAtGe || item.createdAt >= q.createdAtGe);

  /** The trends of the seeded conversations, per UTC day (the server's index, in short). */
  const fixtureStats = (days: number) => {
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const perDay = Array.from({ length: days }, (_, i) => {
      const day = new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
      const on = (item: { createdAt: string }) => item.createdAt.startsWith(day);
      const sessions = new Set(chats.filter(on).map((c) => c.sessionId ?? c.id));
      return { day, calls: calls.filter(on).length, chats: sessions.size, unanswered: 0, mailed: 0 };
    });
    const conversations = perDay.reduce((n, d) => n + d.calls + d.chats, 0);
    return {
      days,
      perDay,
      totals: {
        conversations,
        calls: perDay.reduce((n, d) => n + d.calls, 0),
        chats: perDay.reduce((n, d) => n + d.chats, 0),
        unanswered: 0,
        unansweredShare: 0,
        waiting: answerRequests.filter((r) => !r.answeredAt).length,
        mailed: answerRequests.filter((r) => r.sentAt).length,
      },
      indexedAt: new Date().toISOString(),
    };
  };

  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const query = Object.fromEntries(url.searchParams);
    const path = url.pathname.replace(/^\/api\/provider(?=\/)/, '');
    let body: unknown;
    if (init?.body instanceof FormData) {
      const file = init.body.get('file') as File;
      // jsdom's File has no text(): its FileReader reads it.
      const text = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(file);
      });
      body = { name: file.name, text };
    } else if (typeof init?.body === 'string') body = JSON.parse(init.body);
    requests.push({ method, path, query, ...(body === undefined ? {} : { body }) });
    const [, resource, id] = path.split('/');
    const limit = Number(query.limit ?? 100);

    if (path === '/api/conversations/unanswered') {
      const answered = new Map<string, Set<string>>();
      for (const a of [...answers, ...dismissed])
        answered.set(
          a.assistantId,
          new Set([...(answered.get(a.assistantId) ?? []), normaliseQuestion(a.question)]),
        );
      const conversations = toConversations(calls, chats);
      return json({
        questions: unansweredQuestions(conversations, { answered }),
        scanned: conversations.length,
        scannedAt: new Date().toISOString(),
      });
    }
    if (path === '/api/conversations/dismissed' && method === 'POST') {
      dismissed.push(body as { assistantId: string; question: string });
      return json({ dismissed: body });
    }
    if (path === '/api/conversations/answers' && method === 'POST') {
      const saved = body as { assistantId: string; question: string; answer: string };
      if (!assistants.has(saved.assistantId))
        return json(
          {
            error: 'unknown_assistant',
            message: `This site offers no assistant "${saved.assistantId}": answers are saved for its own assistants only.`,
          },
          404,
        );
      answers.push(saved);
      const key = `${saved.assistantId}\n${normaliseQuestion(saved.question)}`;
      let mailed = 0;
      let notMailed = 0;
      for (const r of answerRequests.filter((r) => r.questionKey === key && !r.sentAt)) {
        r.answeredAt = new Date().toISOString();
        if (mailTo(r)) mailed++;
        else notMailed++;
      }
      return json({ saved: true, mailed, notMailed });
    }
    if (path === '/api/conversations/answer-requests') return json({ requests: answerRequests });
    if (path === '/api/conversations/stats') return json(fixtureStats(Number(query.days ?? 30)));
    const resend = /^\/api\/conversations\/answer-requests\/([^/]+)\/send$/.exec(path);
    if (resend && method === 'POST') {
      const request = answerRequests.find((r) => r.id === decodeURIComponent(resend[1]!));
      if (!request) return json({ error: 'not_found', message: 'No visitor is waiting under this id.' }, 404);
      return mailTo(request)
        ? json({ request })
        : json({ error: 'send_failed', message: `The mail could not be sent: ${request.sendError}` }, 502);
    }
    if (resource === 'storage')
      return new Response(files.get(id!)?.text ?? '', { status: files.has(id!) ? 200 : 404 });
    if (resource === 'call' && method === 'GET' && !id)
      return json(newest(calls).filter(inRange(query)).slice(0, limit));
    if (resource === 'call' && id) {
      const i = calls.findIndex((c) => c.id === id);
      if (i < 0) return notFound();
      if (method === 'DELETE') return json(calls.splice(i, 1)[0]);
      return json(calls[i]);
    }
    if (resource === 'chat' && method === 'GET' && !id) {
      const matching = newest(chats)
        .filter(inRange(query))
        .filter((c) => !query.sessionId || c.sessionId === query.sessionId);
      const page = Number(query.page ?? 1);
      const results = matching.slice((page - 1) * limit, page * limit);
      if (query.sortOrder === 'ASC') results.reverse();
      return json({
        results,
        metadata: {
          itemsPerPage: limit,
          totalItems: matching.length,
          currentPage: page,
          hasNextPage: page * limit < matching.length,
        },
      });
    }
    if (resource === 'chat' && id) {
      const i = chats.findIndex((c) => c.id === id);
      if (i < 0) return notFound();
      if (method === 'DELETE') return json(chats.splice(i, 1)[0]);
      return json(chats[i]);
    }
    if (resource === 'assistant' && !id) return json([...assistants.values()]);
    if (resource === 'assistant' && id) {
      const a = assistants.get(id);
      if (!a) return notFound();
      if (method === 'PATCH') a.model = (body as { model: Record<string, unknown> }).model;
      return json(a);
    }
    if (resource === 'tool' && method === 'GET' && !id) return json([...tools.values()]);
    if (resource === 'tool' && method === 'POST') {
      const tool = { ...(body as object), id: `t${++seq}` };
      tools.set(tool.id, tool);
      return json(tool, 201);
    }
    if (resource === 'tool' && method === 'PATCH' && id) {
      const tool = { ...tools.get(id)!, ...(body as object) };
      tools.set(id, tool);
      return json(tool);
    }
    if (resource === 'file' && method === 'POST') {
      const { name, text } = body as { name: string; text: string };
      const file = { id: `f${++seq}`, name, text };
      files.set(file.id, file);
      return json({ id: file.id, name, bytes: text.length, status: 'processing' }, 201);
    }
    if (resource === 'file' && id) {
      const file = files.get(id);
      if (!file) return notFound();
      if (method === 'DELETE') files.delete(id);
      return json({
        id,
        name: file.name,
        bytes: file.text.length,
        url: `https://storage.test/storage/${id}/${file.name}`,
      });
    }
    return notFound();
  };
  return {
    fetch: fetchImpl,
    calls,
    chats,
    assistants,
    tools,
    files,
    requests,
    answers,
    dismissed,
    answerRequests,
    mail,
  };
}
