import { describe, expect, it, vi } from 'vitest';
import { createCallThroughServer, ServerCallError } from './server-call.js';
import { setup } from './test-harness.js';
import type { CallStartFailedEvent } from './types.js';

const SERVER_CALL = {
  id: 'ws-call-1',
  type: 'vapi.websocketCall',
  webCallUrl: 'https://rooms.test/room-from-server',
  transport: { provider: 'vapi.websocket', websocketCallUrl: 'https://rooms.test/room-from-server' },
};

function serverFetch(status: number, body: unknown) {
  return vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

describe('start() with createCall: a call created by the app’s own server', () => {
  it('creates the call through the server instead of POST /call/web, then joins its URL', async () => {
    const t = setup();
    const fetch = serverFetch(201, SERVER_CALL);
    const call = await t.vapi.start(
      'asst_index',
      { variableValues: { name: 'Ada' } },
      undefined,
      undefined,
      undefined,
      {
        createCall: createCallThroughServer('/api/calls/websocket', {
          fetch,
          headers: async () => ({ Authorization: 'Bearer user-token' }),
        }),
      },
    );
    expect(call).toMatchObject({ id: 'ws-call-1' });
    expect(t.requests).toHaveLength(0); // the public-key route was never called
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/calls/websocket');
    expect(JSON.parse(String(init?.body))).toEqual({
      assistantId: 'asst_index',
      assistantOverrides: { variableValues: { name: 'Ada' } },
    });
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer user-token');
    expect(t.daily.last.joinOptions).toMatchObject({ url: 'https://rooms.test/room-from-server' });
    expect(t.progress()).toContain('web-call-creation:completed');
  });

  it('joins a call that has only transport.websocketCallUrl', async () => {
    const create = createCallThroughServer('/api/calls/websocket', {
      fetch: serverFetch(201, { id: 'c2', transport: { websocketCallUrl: 'wss://x.test/c2/transport' } }),
    });
    await expect(
      create({ assistantId: 'a' }, { signal: new AbortController().signal }),
    ).resolves.toMatchObject({
      webCallUrl: 'wss://x.test/c2/transport',
    });
  });

  it('reports the server’s refusal as a failed web-call-creation stage with its message', async () => {
    const t = setup();
    const createCall = createCallThroughServer('/api/calls/websocket', {
      fetch: serverFetch(403, {
        error: 'assistant_not_allowed',
        message: 'Assistant x cannot be called from this site.',
      }),
    });
    const call = await t.vapi.start('x', undefined, undefined, undefined, undefined, { createCall });
    expect(call).toBeNull();
    const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
    expect(failed).toMatchObject({ stage: 'web-call-creation' });
    expect(failed!.error).toContain('Assistant x cannot be called from this site.');
  });

  it('refuses an inline assistant and an answer without a URL, with clear errors', async () => {
    const signal = new AbortController().signal;
    const create = createCallThroughServer('/x', { fetch: serverFetch(201, { id: 'no-url' }) });
    await expect(create({ assistant: { name: 'inline' } }, { signal })).rejects.toThrow(/assistant id/);
    await expect(create({ assistantId: 'a' }, { signal })).rejects.toThrow(ServerCallError);
    await expect(create({ assistantId: 'a' }, { signal })).rejects.toThrow(/without a call URL/);
  });
});
