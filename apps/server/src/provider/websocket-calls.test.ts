import { VapiApiError, VapiNetworkError } from '@engage/vapi-client';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedUser } from '../platform/http/require-auth.js';
import { createLogger } from '../platform/logger.js';
import { websocketCallsRoute, type ProviderCallBody, type WebSocketCallsOptions } from './websocket-calls.js';

// POST /api/calls/websocket on its own. Configuration, the provider sender and the real provider:
// websocket-calls-config.test.ts.

const member: AuthenticatedUser = { id: 'u1', email: 'm@x.io', role: 'user', appMetadata: {} };

function setup(overrides: Partial<WebSocketCallsOptions> = {}) {
  const sent: { body: ProviderCallBody; origin: string }[] = [];
  let clock = 0;
  const options: WebSocketCallsOptions = {
    createProviderCall: async (body, origin) => {
      sent.push({ body, origin });
      return {
        id: 'call_1',
        orgId: 'org',
        status: 'queued',
        type: 'vapi.websocketCall',
        assistant: { model: { messages: [{ role: 'system', content: 'secret prompt' }] } },
        transport: {
          provider: 'vapi.websocket',
          websocketCallUrl: `ws://rooms.test/provider/rooms/call_1`,
        },
      };
    },
    assistants: ['asst_index'],
    allowAnonymous: true,
    verifyAccessToken: async (token) => (token === 'good' ? member : null),
    perMinute: 3,
    logger: createLogger('silent'),
    publicOrigin: () => 'https://engage.example',
    now: () => clock,
    ...overrides,
  };
  const app = new Hono().route('/api/calls/websocket', websocketCallsRoute(options));
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    app.request('http://site.test/api/calls/websocket', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { post, sent, tick: (ms: number) => (clock += ms) };
}

describe('POST /api/calls/websocket', () => {
  it('places the call at the configured origin, whatever Host or X-Forwarded-Host the request names', async () => {
    const { post, sent } = setup();
    const res = await post(
      { assistantId: 'asst_index' },
      { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    );
    expect(res.status).toBe(201);
    expect(sent.map((s) => s.origin)).toEqual(['https://engage.example']);
  });

  it('creates a vapi.websocket call for an allowed assistant and answers only how to join it', async () => {
    const { post, sent } = setup();
    const res = await post({
      assistantId: 'asst_index',
      assistantOverrides: { variableValues: { name: 'Ada' } },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      id: 'call_1',
      type: 'vapi.websocketCall',
      status: 'queued',
      assistantId: 'asst_index',
      webCallUrl: 'ws://rooms.test/provider/rooms/call_1',
      transport: {
        provider: 'vapi.websocket',
        websocketCallUrl: 'ws://rooms.test/provider/rooms/call_1',
        audioFormat: { format: 'pcm_s16le', container: 'raw', sampleRate: 16_000 },
      },
    });
    expect(JSON.stringify(body)).not.toContain('secret prompt');
    expect(sent).toEqual([
      {
        origin: 'https://engage.example',
        body: {
          assistantId: 'asst_index',
          assistantOverrides: { variableValues: { name: 'Ada' } },
          transport: {
            provider: 'vapi.websocket',
            audioFormat: { format: 'pcm_s16le', container: 'raw', sampleRate: 16_000 },
          },
        },
      },
    ]);
  });

  it('refuses assistants not allowed by configuration, and any assistant when "*" is not set', async () => {
    const { post, sent } = setup();
    const res = await post({ assistantId: 'asst_other' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'assistant_not_allowed' });
    expect(sent).toEqual([]);
    const open = setup({ assistants: '*' });
    expect((await open.post({ assistantId: 'asst_other' })).status).toBe(201);
  });

  it('answers 400 with the reason for bad bodies, including overrides beyond variables', async () => {
    const { post } = setup();
    for (const [body, reason] of [
      ['not json', 'JSON'],
      [{}, 'assistantId'],
      [
        { assistantId: 'asst_index', assistantOverrides: { model: { provider: 'openai' } } },
        'assistantOverrides',
      ],
      [{ assistantId: 'asst_index', serverUrl: 'https://evil.test' }, 'serverUrl'],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const json = (await res.json()) as { error: string; message: string; field?: string };
      expect(json.error).toBe(body === 'not json' ? 'invalid_json' : 'validation_failed');
      expect(`${json.field ?? ''} ${json.message}`).toContain(reason);
    }
  });

  it('bounds variableValues: keys, value length and 16 KiB as JSON (400, nothing sent)', async () => {
    const { post, sent } = setup();
    const fiveMb = { v: 'x'.repeat(5 * 1024 * 1024) };
    const manyKeys = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    // 20 values of 1000 characters fit the per-value rule, but are 60 KB as UTF-8.
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, '€'.repeat(1000)]));
    for (const [variableValues, reason] of [
      [fiveMb, 'variableValues.v'],
      [manyKeys, 'at most 20 variableValues'],
      [wide, 'at most 16384 bytes'],
    ] as const) {
      const res = await post({ assistantId: 'asst_index', assistantOverrides: { variableValues } });
      expect(res.status).toBe(400);
      const json = (await res.json()) as { error: string; message: string; field?: string };
      expect(json.error).toBe('validation_failed');
      expect(`${json.field ?? ''}: ${json.message}`).toContain(reason);
    }
    expect(sent).toEqual([]);
    const fits = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'x'.repeat(700)]));
    expect(
      (await post({ assistantId: 'asst_index', assistantOverrides: { variableValues: fits } })).status,
    ).toBe(201);
  });

  it('needs a signed-in user when anonymous calls are off, and refuses a bad token either way', async () => {
    const closed = setup({ allowAnonymous: false });
    expect((await closed.post({ assistantId: 'asst_index' })).status).toBe(401);
    expect((await closed.post({ assistantId: 'asst_index' }, { Authorization: 'Bearer good' })).status).toBe(
      201,
    );
    const open = setup();
    expect((await open.post({ assistantId: 'asst_index' }, { Authorization: 'Bearer forged' })).status).toBe(
      401,
    );
  });

  it('rate-limits per caller with Retry-After, and lets calls through again after a minute', async () => {
    const { post, tick } = setup();
    for (let i = 0; i < 3; i++) expect((await post({ assistantId: 'asst_index' })).status).toBe(201);
    const limited = await post({ assistantId: 'asst_index' });
    expect(limited.status).toBe(429);
    // Token bucket (the server's one limiter): 3 a minute gives one back every 20 s.
    expect(limited.headers.get('Retry-After')).toBe('20');
    // A signed-in user has an allowance of their own.
    expect((await post({ assistantId: 'asst_index' }, { Authorization: 'Bearer good' })).status).toBe(201);
    tick(60_000);
    expect((await post({ assistantId: 'asst_index' })).status).toBe(201);
  });

  it('maps provider failures to clear errors', async () => {
    const refused = (status: number, body: unknown) => new VapiApiError({ status, statusText: '', body });
    const cases: [unknown, number, string][] = [
      [refused(404, { message: 'Assistant not found' }), 404, 'assistant_not_found'],
      [refused(429, {}), 503, 'provider_busy'],
      [refused(401, { message: 'Invalid Key' }), 502, 'provider_error'],
      [{ id: 'x', transport: {} }, 502, 'provider_error'],
      [new VapiNetworkError('ECONNREFUSED'), 502, 'provider_unreachable'],
    ];
    for (const [answer, status, code] of cases) {
      const { post } = setup({
        createProviderCall: async () => {
          if (answer instanceof Error) throw answer;
          return answer;
        },
      });
      const res = await post({ assistantId: 'asst_index' });
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error: code });
    }
  });
});
