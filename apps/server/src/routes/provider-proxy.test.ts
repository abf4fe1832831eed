import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createVapiClient, isVapiApiError } from '@engage/vapi-client';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { parseConfig } from '../config.js';
import { migrate } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import type { Db } from '../db/types.js';
import { createLogger } from '../lib/logger.js';
import { openSecretStore } from '../lib/secrets.js';
import type { AuthenticatedUser, VerifyAccessToken } from '../middleware/require-auth.js';
import { allMigrations } from '../server.js';
import { providerProxy } from './provider-proxy.js';

const PRIVATE_KEY = 'sk-server-held-must-never-leak';
const callers: Record<string, AuthenticatedUser> = {
  // 'good-token' is an operator: the role the server's provider key needs.
  'good-token': { id: 'u1', email: 'ada@example.com', role: 'operator', appMetadata: { role: 'operator' } },
  'admin-token': { id: 'u2', email: 'boss@example.com', role: 'admin', appMetadata: { role: 'admin' } },
  'user-token': { id: 'u3', email: 'joe@example.com', role: 'user', appMetadata: {} },
};
const verify: VerifyAccessToken = async (token) => callers[token] ?? null;

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A proxy in front of a fake upstream that records what it was sent. */
function proxyWithUpstream(answer: (req: Request) => Response | Promise<Response>, lines: string[] = []) {
  const seen: Seen[] = [];
  const app = new Hono();
  app.route(
    '/api/provider',
    providerProxy({
      verify,
      upstreamBaseUrl: 'https://api.provider.test/v0',
      privateKey: PRIVATE_KEY,
      logger: createLogger('debug', (l) => lines.push(l)),
      fetch: async (req) => {
        seen.push({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: req.body ? await req.text() : '',
        });
        return answer(req);
      },
    }),
  );
  return { app, seen, lines };
}

const signedIn = { Authorization: 'Bearer good-token' };

describe('providerProxy', () => {
  it('refuses anonymous callers and bad tokens with 401, sending nothing upstream', async () => {
    const { app, seen } = proxyWithUpstream(() => new Response('{}'));
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer forged' },
      { Cookie: 'sb-access-token=good-token' },
    ]) {
      const res = await app.request('/api/provider/file', { headers });
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain(PRIVATE_KEY);
    }
    expect(seen).toHaveLength(0);
  });

  it("forwards with the server's key instead of the caller's credentials, and passes status and body back", async () => {
    const { app, seen } = proxyWithUpstream(
      () =>
        new Response(JSON.stringify({ message: ['name must be a string'], statusCode: 400 }), {
          status: 400,
          headers: { 'content-type': 'application/json', 'set-cookie': 'upstream=1', 'retry-after': '2' },
        }),
    );
    const res = await app.request('/api/provider/assistant/asst%3A1?limit=5&q=a%2Fb', {
      method: 'PATCH',
      headers: { ...signedIn, Cookie: 'session=secret', 'Content-Type': 'application/json', 'X-Extra': 'x' },
      body: JSON.stringify({ name: 1 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: ['name must be a string'], statusCode: 400 });
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('retry-after')).toBe('2');

    const sent = seen[0]!;
    expect(sent.method).toBe('PATCH');
    expect(sent.url).toBe('https://api.provider.test/v0/assistant/asst%3A1?limit=5&q=a%2Fb');
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PRIVATE_KEY}`);
    expect(sent.headers.get('cookie')).toBeNull();
    expect(sent.headers.get('x-extra')).toBeNull();
    expect(sent.headers.get('x-forwarded-host')).toBeNull();
    expect(sent.body).toBe('{"name":1}');
  });

  it('refuses routes that would hand a user the whole account (403)', async () => {
    const { app, seen } = proxyWithUpstream(() => new Response('{}'));
    for (const [method, p] of [
      ['POST', '/token'],
      ['GET', '/credential'],
      ['DELETE', '/assistant/asst_index'],
      ['POST', '/org/o1/invite'],
    ] as const) {
      const res = await app.request(`/api/provider${p}`, { method, headers: signedIn });
      expect(res.status).toBe(403);
    }
    expect(seen).toHaveLength(0);
  });

  it("lets operators and admins use the server's key, and refuses other signed-in users with 403", async () => {
    const { app, seen } = proxyWithUpstream(() => Response.json([]));
    const user = await app.request('/api/provider/file', { headers: { Authorization: 'Bearer user-token' } });
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({
      error: 'operator_required',
      message:
        "Only operators and administrators can use the server's provider key. Ask an administrator for access, or use your own private key.",
    });
    const write = await app.request('/api/provider/assistant/asst_index', {
      method: 'PATCH',
      headers: { Authorization: 'Bearer user-token', 'Content-Type': 'application/json' },
      body: '{"name":"pwned"}',
    });
    expect(write.status).toBe(403);
    expect(seen).toHaveLength(0);
    for (const token of ['good-token', 'admin-token']) {
      const res = await app.request('/api/provider/file', { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status, token).toBe(200);
    }
    expect(seen).toHaveLength(2);
  });

  it("refuses the issue's encoded-backslash bypass with 400 (issue 12, item 1)", async () => {
    const { app, seen } = proxyWithUpstream(() => new Response('{}'));
    for (const [method, p] of [
      ['GET', '/file/..%5Ccall'],
      ['DELETE', '/file/..%5Cassistant%5Casst_onboarding'],
      ['GET', '/file/..%5ccall'],
      ['GET', '/file/..%5C..%5Ccredential'],
      ['GET', '/file/%2e%2e%5Corg'],
      ['GET', '/file/.%5C..%5Ccall'],
    ] as const) {
      const res = await app.request(`/api/provider${p}`, { method, headers: signedIn });
      expect(res.status, `${method} ${p}`).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad_path', message: expect.any(String) });
    }
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([]);
  });

  // Each path reaches the proxy exactly as written (the request's url is not normalised first, as on
  // a runtime that passes the request line through): the raw text and the decoded path are checked.
  const tricky: [string, string][] = [
    ['GET', '/file/..%5Ccall'],
    ['GET', '/file/..\\call'],
    ['GET', '/file/..%2Fcall'],
    ['GET', '/file/..%2fcall'],
    ['GET', '/file/%2e%2e%2fcall'],
    ['GET', '/file/%252e%252e%252fcall'],
    ['GET', '/file/%255Ccall'],
    ['GET', '/file/%25'],
    ['GET', '/file/../call'],
    ['GET', '/file/%2e%2e/call'],
    ['GET', '/file/.%2E/credential'],
    ['GET', '/file/%2E/f1'],
    ['GET', '/file/./f1'],
    ['DELETE', '/file/..'],
    ['PATCH', '/assistant/%2E%2E%5Ccredential'],
    ['DELETE', '/knowledge-base/..%5C..%5Corg%5Co1'],
    ['GET', '/tool/a%00b'],
    ['GET', '/tool/a%0D%0AHost:evil'],
    ['GET', '/file/%E0%A4%A'],
    ['POST', '/file%5C..%5Ccall'],
    ['GET', '/assistant/x%5C..%5C..%5Corg?x=1'],
  ];
  it.each(tricky)('%s %s: 400 bad_path, nothing sent upstream', async (method, p) => {
    const { app, seen } = proxyWithUpstream(() => new Response('{}'));
    const url = `http://localhost/api/provider${p}`;
    const request = new Request(url, { method, headers: signedIn });
    Object.defineProperty(request, 'url', { value: url });
    const res = await app.fetch(request);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'bad_path' });
    expect(seen).toHaveLength(0);
  });

  it('sends the site origin from configuration to the emulator, never the caller’s Host or X-Forwarded-*', async () => {
    const seen: Headers[] = [];
    const app = new Hono();
    app.route(
      '/api/provider',
      providerProxy({
        verify,
        upstreamBaseUrl: 'http://embedded.invalid/provider',
        privateKey: PRIVATE_KEY,
        forwardOrigin: { publicOrigin: () => 'https://engage.example', secret: 'proxy-secret' },
        fetch: async (req) => {
          seen.push(req.headers);
          return new Response('{}');
        },
      }),
    );
    const res = await app.request('http://evil.example/api/provider/file', {
      headers: {
        ...signedIn,
        Host: 'evil.example',
        'X-Forwarded-Host': 'evil.example',
        'X-Forwarded-Proto': 'http',
        'X-Engage-Proxy': 'guessed',
      },
    });
    expect(res.status).toBe(200);
    expect(seen[0]?.get('x-forwarded-host')).toBe('engage.example');
    expect(seen[0]?.get('x-forwarded-proto')).toBe('https');
    expect(seen[0]?.get('x-engage-proxy')).toBe('proxy-secret');
  });

  it('answers 502 when the provider cannot be reached, logging no key', async () => {
    const lines: string[] = [];
    const { app } = proxyWithUpstream(() => {
      throw new TypeError('fetch failed');
    }, lines);
    const res = await app.request('/api/provider/file', { headers: signedIn });
    expect(res.status).toBe(502);
    expect(await res.text()).not.toContain(PRIVATE_KEY);
    expect(lines.join('\n')).toContain('upstream unreachable');
    expect(lines.join('\n')).not.toContain(PRIVATE_KEY);
  });

  it('refuses bodies over the limit with 413, whether declared or streamed', async () => {
    const seen: string[] = [];
    const app = new Hono();
    app.route(
      '/api/provider',
      providerProxy({
        verify,
        upstreamBaseUrl: 'https://api.provider.test',
        privateKey: PRIVATE_KEY,
        maxBodyBytes: 10,
        fetch: async (req) => {
          seen.push(await req.text());
          return new Response('{}', { status: 201 });
        },
      }),
    );
    const declared = await app.request('/api/provider/file', {
      method: 'POST',
      headers: { ...signedIn, 'Content-Length': '11', 'Content-Type': 'text/plain' },
      body: '01234567890',
    });
    expect(declared.status).toBe(413);
    expect(seen).toHaveLength(0);

    const streamed = await app.request('/api/provider/file', {
      method: 'POST',
      headers: { ...signedIn, 'Content-Type': 'text/plain' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('0123456789'));
          controller.enqueue(new TextEncoder().encode('overflow'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: 'payload_too_large' });

    const small = await app.request('/api/provider/file', {
      method: 'POST',
      headers: { ...signedIn, 'Content-Type': 'text/plain' },
      body: '0123456789',
    });
    expect(small.status).toBe(201);
    expect(seen).toEqual(['0123456789']);
  });

  it('streams an upload upstream as it arrives instead of buffering it', async () => {
    // The caller's second chunk is only released once upstream has read the first: a proxy that
    // buffered the body would wait forever for the end of it.
    let firstChunkArrived!: () => void;
    const upstreamHasFirstChunk = new Promise<void>((resolve) => (firstChunkArrived = resolve));
    const app = new Hono();
    const received: string[] = [];
    app.route(
      '/api/provider',
      providerProxy({
        verify,
        upstreamBaseUrl: 'https://api.provider.test',
        privateKey: PRIVATE_KEY,
        fetch: async (req) => {
          const reader = req.body!.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            received.push(decoder.decode(value));
            firstChunkArrived();
          }
          return Response.json({ id: 'f1', bytes: received.join('').length }, { status: 201 });
        },
      }),
    );
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode('first-part;'));
          await upstreamHasFirstChunk;
          controller.enqueue(encoder.encode('second-part'));
          controller.close();
        },
      });
      const res = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/provider/file`,
        {
          method: 'POST',
          headers: { ...signedIn, 'Content-Type': 'multipart/form-data; boundary=x' },
          body,
          duplex: 'half',
        } as RequestInit,
      );
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ id: 'f1', bytes: 22 });
      expect(received.join('')).toBe('first-part;second-part');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the embedded provider in the server', () => {
  const PUBLIC_ORIGIN = 'https://engage.example';
  let db: Db;
  let dir: string;
  let server: ServerType;
  let origin: string;
  const lines: string[] = [];
  let emulatorPrivateKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'engage-provider-'));
    db = await openPglite();
    await migrate(db, allMigrations());
    const config = parseConfig({ DATA_DIR: dir, SITE_DIR: path.join(dir, 'site') });
    const secrets = openSecretStore(dir);
    const app = createApp({
      config,
      db,
      logger: createLogger('debug', (l) => lines.push(l)),
      secrets,
      verifyAccessToken: verify,
      publicOrigin: () => PUBLIC_ORIGIN,
    });
    emulatorPrivateKey = secrets.all().emulatorPrivateKey!;
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates the emulator keys once and keeps them in DATA_DIR', () => {
    const stored = openSecretStore(dir).all();
    expect(stored.emulatorPublicKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.emulatorPrivateKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.emulatorPublicKey).not.toBe(stored.emulatorPrivateKey);
  });

  it('tells the browser the emulator public key and this server as provider, never the private key', async () => {
    const res = await fetch(`${origin}/config.json`);
    const text = await res.text();
    expect(JSON.parse(text).provider).toEqual({
      name: 'Vapi',
      baseUrl: null,
      publicKey: openSecretStore(dir).all().emulatorPublicKey,
      serverHoldsPrivateKey: true,
      embedded: true,
    });
    expect(text).not.toContain(emulatorPrivateKey);
  });

  it('serves the emulator at /provider: a web call with the public key joins a room on this server', async () => {
    const browser = createVapiClient({
      baseUrl: `${origin}/provider`,
      token: openSecretStore(dir).all().emulatorPublicKey!,
    });
    const call = await browser.call.createWeb({ assistantId: SEEDED_ASSISTANT_IDS.index });
    expect(call.webCallUrl).toBe(`${origin.replace('http', 'ws')}/provider/rooms/${call.id}`);
    const unknown = await fetch(`${origin}/provider/not-a-route`, {
      headers: { Authorization: `Bearer ${emulatorPrivateKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
  });

  it('lets an operator upload, list and delete files through /api/provider, leaking no key', async () => {
    const viaProxy = createVapiClient({ baseUrl: `${origin}/api/provider`, token: 'good-token' });
    const created = await viaProxy.file.upload(new File(['# Notes'], 'notes.md', { type: 'text/markdown' }), {
      purpose: 'assistant',
    });
    expect(created).toMatchObject({ name: 'notes.md', status: 'processing', bytes: 7 });
    // Stored URLs point at the site's configured public origin.
    expect(created.url).toBe(`${PUBLIC_ORIGIN}/provider/storage/${created.id}/notes.md`);
    expect((await viaProxy.file.list({ purpose: 'assistant' })).map((f) => f.id)).toContain(created.id);
    const assistant = await viaProxy.assistant.get(SEEDED_ASSISTANT_IDS.onboarding);
    expect(assistant.name).toBe('Project Onboarding Assistant');
    await viaProxy.file.delete(created.id);

    const anonymous = await createVapiClient({ baseUrl: `${origin}/api/provider` })
      .file.list()
      .catch((e: unknown) => e);
    expect(isVapiApiError(anonymous) && anonymous.status).toBe(401);

    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(emulatorPrivateKey);
  });

  it('stores file URLs on the configured origin whatever Host or X-Forwarded-* the caller sends', async () => {
    const form = new FormData();
    form.append('file', new File(['# Notes'], 'poison.md', { type: 'text/markdown' }));
    const res = await fetch(`${origin}/api/provider/file`, {
      method: 'POST',
      headers: { ...signedIn, 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' },
      body: form,
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; url: string };
    expect(created.url).toBe(`${PUBLIC_ORIGIN}/provider/storage/${created.id}/poison.md`);
    // Straight to the emulator, a caller's forwarding headers are not believed either.
    const direct = await fetch(`${origin}/provider/file/${created.id}`, {
      headers: {
        Authorization: `Bearer ${emulatorPrivateKey}`,
        'X-Forwarded-Host': 'evil.example',
        'X-Engage-Proxy': 'a-guess',
      },
    });
    expect(((await direct.json()) as { url: string }).url).not.toContain('evil.example');
  });

  it("refuses the issue's bypass over HTTP: no call list, the assistant is not deleted", async () => {
    const list = await fetch(`${origin}/api/provider/file/..%5Ccall`, { headers: signedIn });
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ error: 'bad_path' });
    const del = await fetch(`${origin}/api/provider/file/..%5Cassistant%5Casst_onboarding`, {
      method: 'DELETE',
      headers: signedIn,
    });
    expect(del.status).toBe(400);
    const still = await fetch(`${origin}/api/provider/assistant/${SEEDED_ASSISTANT_IDS.onboarding}`, {
      headers: signedIn,
    });
    expect(still.status).toBe(200);
  });

  it('refuses dot segments as the request line carried them, before Node resolves them away (400)', async () => {
    // fetch() and curl resolve '..' themselves; a raw request line keeps it, and Node's URL parser
    // would quietly turn /file/../assistant/x into /assistant/x.
    const raw = (target: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const { port } = new URL(origin);
        const req = httpRequest(
          { host: '127.0.0.1', port, path: target, method, headers: signedIn },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    const onboarding = SEEDED_ASSISTANT_IDS.onboarding;
    for (const target of [
      `/api/provider/file/../assistant/${onboarding}`,
      `/api/provider/file/%2e%2e/assistant/${onboarding}`,
      `/api/provider/file/%2E./assistant/${onboarding}`,
      '/api/provider/file/./x',
      '/api/provider/./file',
    ])
      expect([target, await raw(target)]).toEqual([target, 400]);
    expect(await raw(`/api/provider/file/../assistant/${onboarding}`, 'DELETE')).toBe(400);
    const still = await fetch(`${origin}/api/provider/assistant/${onboarding}`, { headers: signedIn });
    expect(still.status).toBe(200);
  });

  it('answers 403 operator_required to a signed-in user without the role', async () => {
    const res = await fetch(`${origin}/api/provider/file`, {
      headers: { Authorization: 'Bearer user-token' },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'operator_required' });
  });
});

describe('the server with a real provider key', () => {
  it('mounts no emulator, generates no emulator keys, and publishes only the public key', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-provider-real-'));
    const db = await openPglite();
    try {
      const config = parseConfig({
        DATA_DIR: dir,
        SITE_DIR: path.join(dir, 'site'),
        VAPI_PRIVATE_KEY: PRIVATE_KEY,
        VAPI_PUBLIC_KEY: 'pk-real-public',
        VAPI_API_URL: 'https://api.provider.test',
      });
      const app = createApp({
        config,
        db,
        logger: createLogger('silent'),
        secrets: openSecretStore(dir),
        verifyAccessToken: verify,
      });
      const text = await (await app.request('/config.json')).text();
      expect(JSON.parse(text).provider).toMatchObject({
        baseUrl: 'https://api.provider.test',
        publicKey: 'pk-real-public',
        serverHoldsPrivateKey: true,
        embedded: false,
      });
      expect(text).not.toContain(PRIVATE_KEY);
      expect(openSecretStore(dir).all()).not.toHaveProperty('emulatorPrivateKey');
      expect((await app.request('/api/provider/file')).status).toBe(401);
      const emulatorPath = await app.request('/provider/file', {
        headers: { Authorization: `Bearer ${PRIVATE_KEY}` },
      });
      expect(emulatorPath.headers.get('content-type') ?? '').not.toContain('application/json');
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
