// Test support for the conversation-*.test.ts suites: the whole server with the embedded provider,
// callers by token, visitor chats with the public key, and the Answers document read back.
import type { Db } from '@engage/db';
import { testDbTargets, type TestDbTarget } from '@engage/db/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AuthenticatedUser, VerifyAccessToken } from '../platform/http/require-auth.js';
import { startProviderTestServer, type ProviderTestServer } from '../provider/server-harness.js';
import { allMigrations } from '../server.js';

export const INDEX = 'asst_index';

const callers: Record<string, AuthenticatedUser> = {
  'operator-token': {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'op@example.com',
    role: 'operator',
    appMetadata: { role: 'operator' },
  },
  'admin-token': {
    id: '00000000-0000-4000-8000-000000000002',
    email: 'boss@example.com',
    role: 'admin',
    appMetadata: { role: 'admin' },
  },
  'user-token': {
    id: '00000000-0000-4000-8000-000000000003',
    email: 'joe@example.com',
    role: 'user',
    appMetadata: {},
  },
};
export const verify: VerifyAccessToken = async (token) => callers[token] ?? null;

export function client(
  origin: string,
  publicKey: string,
  handle: (request: Request) => Promise<Response> = (request) => fetch(request),
) {
  const send = (method: string, path: string, token: string | null, body?: unknown) =>
    handle(
      new Request(`${origin}${path}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  const ok = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  return {
    send,
    ok,
    /** A visitor's chat with the index assistant (the public key, as the widget sends it). */
    ask: async (input: string) =>
      ok<{ id: string; sessionId: string; output: { content: string }[] }>(
        await send('POST', '/provider/chat/web', publicKey, { assistantId: INDEX, input }),
        201,
      ),
    dismiss: (question: string, token = 'operator-token', assistantId = INDEX) =>
      send('POST', '/api/conversations/dismissed', token, { assistantId, question }),
    /** A visitor leaves an address for the answers to a conversation (a chat turn or a call). */
    requestAnswer: (id: string, email: string, kind: 'chat' | 'call' = 'chat') =>
      send('POST', '/api/answer-requests', null, { conversation: { kind, id }, email }),
    saveAnswer: (question: string, answer: string, token = 'operator-token') =>
      send('POST', '/api/conversations/answers', token, { assistantId: INDEX, question, answer }),
    unanswered: async (token = 'operator-token') =>
      (
        await ok<{ questions: { question: string; count: number }[] }>(
          await send('GET', '/api/conversations/unanswered', token),
        )
      ).questions.map((q) => q.question),
    /** The Answers files the provider holds, and the text of the one the assistant's tool names. */
    answers: async () => {
      const files = await ok<{ id: string; name: string }[]>(
        await send('GET', '/api/provider/file?purpose=assistant', 'operator-token'),
      );
      const assistant = await ok<{ model: { toolIds?: string[] } }>(
        await send('GET', `/api/provider/assistant/${INDEX}`, 'operator-token'),
      );
      const tools = await ok<{ id: string; knowledgeBases?: { name: string; fileIds: string[] }[] }[]>(
        await send('GET', '/api/provider/tool', 'operator-token'),
      );
      const tool = tools.find(
        (t) =>
          assistant.model.toolIds?.includes(t.id) && t.knowledgeBases?.some((kb) => kb.name === 'Answers'),
      );
      const fileId = tool?.knowledgeBases?.find((kb) => kb.name === 'Answers')?.fileIds[0];
      const file = fileId
        ? await ok<{ url: string }>(await send('GET', `/api/provider/file/${fileId}`, 'operator-token'))
        : null;
      // The stored URL names the site's public origin; the same path is served here.
      const url = file ? new URL(file.url) : null;
      const text = url ? await (await fetch(`${origin}${url.pathname}`)).text() : '';
      return { files: files.filter((f) => f.name === 'Answers.md'), text };
    },
  };
}

/**
 * The whole server with the embedded provider on a fresh database of `target` (PGlite by default),
 * started before the describe block's tests and closed after them. `api` goes over real HTTP;
 * `direct` through the app's handler (requests that truly overlap, no client-side queueing).
 */
export function conversationServer(
  target: TestDbTarget = testDbTargets()[0]!,
  env: Record<string, string> = {},
) {
  let db: Db | undefined;
  let server: ProviderTestServer | undefined;
  beforeAll(async () => {
    db = await target.open(allMigrations());
    server = await startProviderTestServer(db, verify, env);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });
  const started = () => {
    if (!server) throw new Error('The conversation server is used before beforeAll ran.');
    return server;
  };
  return {
    get db() {
      if (!db) throw new Error('The conversation server is used before beforeAll ran.');
      return db;
    },
    get server() {
      return started();
    },
    get api() {
      return client(started().origin, started().keys.emulatorPublicKey!);
    },
    get direct() {
      const s = started();
      return client(s.origin, s.keys.emulatorPublicKey!, s.handle);
    },
  };
}
