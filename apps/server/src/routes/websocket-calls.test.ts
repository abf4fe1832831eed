import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { ConfigError, parseConfig } from '../config.js';
import { openPglite } from '../db/pglite.js';
import { createLogger } from '../lib/logger.js';
import { openSecretStore } from '../lib/secrets.js';
import type { AuthenticatedUser } from '../middleware/require-auth.js';
import {
  providerCallSender,
  WEBSOCKET_AUDIO_FORMAT,
  websocketCallsRoute,
  type ProviderCallBody,
  type WebSocketCallsOptions,
} from './websocket-calls.js';

const member: AuthenticatedUser = { id: 'u1', email: 'm@x.io', role: 'user', appMetadata: {} };

function setup(overrides: Partial<WebSocketCallsOptions> = {}) {
  const sent: { body: ProviderCallBody; origin: string }[] = [];
  let clock = 0;
  const options: WebSocketCallsOptions = {
    createProviderCall: async (body, origin) => {
      sent.push({ body, origin });
      return Response.json(
        {
          id: 'call_1',
          orgId: 'org',
          status: 'queued',
          type: 'vapi.websocketCall',
          assistant: { model: { messages: [{ role: 'system', content: 'secret prompt' }] } },
          transport: {
            provider: 'vapi.websocket',
            websocketCallUrl: `ws://rooms.test/provider/rooms/call_1`,
          },
        },
        { status: 201 },
      );
    },
    assistants: ['asst_index'],
    allowAnonymous: true,
    verifyAccessToken: async (token) => (token === 'good' ? member : null),
    perMinute: 3,
    logger: createLogger('silent'),
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
        origin: 'http://site.test',
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
      const json = (await res.json()) as { error: string; message: string };
      expect(json.error).toBe(body === 'not json' ? 'invalid_body' : 'validation_failed');
      expect(json.message).toContain(reason);
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
      const json = (await res.json()) as { error: string; message: string };
      expect(json).toEqual({ error: 'validation_failed', message: expect.stringContaining(reason) });
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
    const cases: [Response | Error, number, string][] = [
      [new Response('{"message":"Assistant not found"}', { status: 404 }), 404, 'assistant_not_found'],
      [new Response('{}', { status: 429 }), 503, 'provider_busy'],
      [new Response('{"message":"Invalid Key"}', { status: 401 }), 502, 'provider_error'],
      [Response.json({ id: 'x', transport: {} }), 502, 'provider_error'],
      [new Error('ECONNREFUSED'), 502, 'provider_unreachable'],
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

describe('configuration of WebSocket calls', () => {
  it('allows the landing pages’ assistants and anonymous callers by default', () => {
    const config = parseConfig({ ASSISTANT_ID_INDEX: 'a1' });
    expect(config.websocketCallAssistants).toEqual(['a1', 'asst_ediscovery', 'asst_onboarding']);
    expect(config.WEBSOCKET_CALLS_ANONYMOUS).toBe(true);
    expect(config.WEBSOCKET_CALLS_PER_MINUTE).toBe(10);
    expect(config.CALL_ROOMS_MAX).toBe(50);
    expect(config.CALL_ROOMS_PER_ADDRESS).toBe(5);
    expect(config.EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS).toBe(20);
    expect(config.MAX_JSON_BYTES).toBe(1024 * 1024);
  });

  it('names a bad per-address or body limit', () => {
    expect(() => parseConfig({ CALL_ROOMS_PER_ADDRESS: '0' })).toThrow(/CALL_ROOMS_PER_ADDRESS/);
    expect(() => parseConfig({ EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS: 'many' })).toThrow(
      /EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS/,
    );
    expect(() => parseConfig({ MAX_JSON_BYTES: '10' })).toThrow(/MAX_JSON_BYTES: must be at least 1024/);
    expect(parseConfig({ MAX_JSON_BYTES: '2097152' }).MAX_JSON_BYTES).toBe(2 * 1024 * 1024);
  });

  it('reads a list or "*", and names a bad value', () => {
    expect(parseConfig({ WEBSOCKET_CALL_ASSISTANTS: 'x, y' }).websocketCallAssistants).toEqual(['x', 'y']);
    expect(parseConfig({ WEBSOCKET_CALL_ASSISTANTS: '*' }).websocketCallAssistants).toBe('*');
    expect(parseConfig({ WEBSOCKET_CALLS_ANONYMOUS: 'false' }).WEBSOCKET_CALLS_ANONYMOUS).toBe(false);
    expect(() => parseConfig({ WEBSOCKET_CALLS_ANONYMOUS: 'maybe' })).toThrow(ConfigError);
    expect(() => parseConfig({ WEBSOCKET_CALLS_PER_MINUTE: '0' })).toThrow(/WEBSOCKET_CALLS_PER_MINUTE/);
    expect(() => parseConfig({ CALL_ROOMS_MAX: 'lots' })).toThrow(/CALL_ROOMS_MAX/);
  });
});

describe('providerCallSender', () => {
  it('posts to <base>/call with the private key; in-process, at the browser origin without X-Forwarded-*', async () => {
    const seen: Request[] = [];
    const fetch = async (request: Request) => {
      seen.push(request);
      return new Response('{}');
    };
    const body = {
      assistantId: 'a',
      transport: { provider: 'vapi.websocket' as const, audioFormat: WEBSOCKET_AUDIO_FORMAT },
    };
    await providerCallSender({ baseUrl: 'https://api.test/', privateKey: 'sk', fetch })(
      body,
      'https://site.test',
    );
    await providerCallSender({
      baseUrl: 'http://embedded/provider',
      privateKey: 'ek',
      fetch,
      atOrigin: true,
    })(body, 'https://site.test:8443');
    expect(seen.map((r) => [r.method, r.url, r.headers.get('authorization')])).toEqual([
      ['POST', 'https://api.test/call', 'Bearer sk'],
      ['POST', 'https://site.test:8443/provider/call', 'Bearer ek'],
    ]);
    // The emulator believes X-Forwarded-* only from the server's proxy: none are sent here.
    for (const request of seen) {
      expect(request.headers.get('x-forwarded-host')).toBeNull();
      expect(request.headers.get('x-forwarded-proto')).toBeNull();
    }
    expect(await seen[1]!.json()).toEqual(body);
  });
});

describe('WebSocket calls against the real provider (VAPI_PRIVATE_KEY set)', () => {
  it('creates the call at <VAPI_API_URL>/call with the private key, and lets the page reach its wss: room', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-ws-real-'));
    const db = await openPglite();
    const sent: Request[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Request(input, init));
      return Response.json(
        {
          id: 'real-1',
          status: 'queued',
          transport: { websocketCallUrl: 'wss://api.vapi.ai/real-1/transport' },
        },
        { status: 201 },
      );
    };
    try {
      const app = createApp({
        config: parseConfig({ DATA_DIR: dir, VAPI_PRIVATE_KEY: 'sk-real', VAPI_PUBLIC_KEY: 'pk-real' }),
        db,
        logger: createLogger('silent'),
        secrets: openSecretStore(dir),
        verifyAccessToken: async () => null,
      });
      const res = await app.request('http://site.test/api/calls/websocket', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ assistantId: 'asst_index' }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ webCallUrl: 'wss://api.vapi.ai/real-1/transport' });
      expect(
        sent.map((r) => [r.url, r.headers.get('authorization'), r.headers.get('x-forwarded-host')]),
      ).toEqual([['https://api.vapi.ai/call', 'Bearer sk-real', null]]);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/connect-src [^;]*wss:\/\/api\.vapi\.ai/);
    } finally {
      globalThis.fetch = realFetch;
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
