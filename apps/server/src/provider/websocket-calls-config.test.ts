import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app-harness.js';
import { ConfigError, parseConfig } from '../platform/config.js';
import { openSecretStore } from '../platform/secrets.js';
import { providerConnection } from './connection.js';
import { providerCallSender, WEBSOCKET_AUDIO_FORMAT } from './websocket-calls.js';

// WebSocket calls' configuration, the sender that creates calls at the provider, and the whole route
// against a stand-in for the real provider. The route's own rules: websocket-calls.test.ts.

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

describe('providerCallSender over the provider connection', () => {
  it('creates the call in-process at the browser origin, with the embedded private key and no X-Forwarded-*', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-ws-sender-'));
    try {
      const seen: Request[] = [];
      const connection = providerConnection(
        parseConfig({ DATA_DIR: dir }),
        openSecretStore(dir),
        async (request) => {
          seen.push(request);
          return Response.json({ id: 'c1' }, { status: 201 });
        },
      );
      expect(connection.embedded).toBe(true);
      const body = {
        assistantId: 'a',
        transport: { provider: 'vapi.websocket' as const, audioFormat: WEBSOCKET_AUDIO_FORMAT },
      };
      expect(await providerCallSender(connection)(body, 'https://site.test:8443')).toEqual({ id: 'c1' });
      expect(seen.map((r) => [r.method, r.url, r.headers.get('authorization')])).toEqual([
        ['POST', 'https://site.test:8443/provider/call', `Bearer ${connection.privateKey}`],
      ]);
      // The emulator believes X-Forwarded-* only from the server's proxy: none are sent here.
      expect(seen[0]!.headers.get('x-forwarded-host')).toBeNull();
      expect(seen[0]!.headers.get('x-forwarded-proto')).toBeNull();
      expect(await seen[0]!.json()).toEqual(body);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WebSocket calls against the real provider (VAPI_PRIVATE_KEY set)', () => {
  it('creates the call at <VAPI_API_URL>/call with the private key, and lets the page reach its wss: room', async () => {
    const sent: Request[] = [];
    const realFetch = globalThis.fetch;
    let test: TestApp | undefined;
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
      test = await startTestApp({ env: { VAPI_PRIVATE_KEY: 'sk-real', VAPI_PUBLIC_KEY: 'pk-real' } });
      const { app } = test;
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
      await test?.close();
    }
  });
});
