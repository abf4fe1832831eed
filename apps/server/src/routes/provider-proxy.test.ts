import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createVapiClient, isVapiApiError } from '@engage/vapi-client';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { parseConfig } from '../config.js';
import { openPglite } from '../db/pglite.js';
import { migrate } from '../db/migrate.js';
import type { Db } from '../db/types.js';
import { createLogger } from '../lib/logger.js';
import { openSecretStore } from '../lib/secrets.js';
import type { AuthenticatedUser, VerifyAccessToken } from '../middleware/require-auth.js';
import { allMigrations } from '../server.js';
import { providerProxy } from './provider-proxy.js';

const PRIVATE_KEY = 'sk-server-held-must-never-leak';
const user: AuthenticatedUser = { id: 'u1', email: 'ada@example.com', role: 'user', appMetadata: {} };
const verify: VerifyAccessToken = async (token) => (token === 'good-token' ? user : null);

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
    const res = await app.request('/api/provider/assistant/a%2Fb?limit=5', {
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
    expect(sent.url).toBe('https://api.provider.test/v0/assistant/a%2Fb?limit=5');
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

  it('lets a signed-in user upload, list and delete files through /api/provider, leaking no key', async () => {
    const viaProxy = createVapiClient({ baseUrl: `${origin}/api/provider`, token: 'good-token' });
    const created = await viaProxy.file.upload(new File(['# Notes'], 'notes.md', { type: 'text/markdown' }));
    expect(created).toMatchObject({ name: 'notes.md', status: 'processing', bytes: 7 });
    // URLs in answers point at this server as the browser reached it.
    expect(created.url).toBe(`${origin}/provider/storage/${created.id}/notes.md`);
    expect((await viaProxy.file.list()).map((f) => f.id)).toContain(created.id);
    const assistant = await viaProxy.assistant.get(SEEDED_ASSISTANT_IDS.onboarding);
    expect(assistant.name).toBe('Onboarding Assistant');
    await viaProxy.file.delete(created.id);

    const anonymous = await createVapiClient({ baseUrl: `${origin}/api/provider` })
      .file.list()
      .catch((e: unknown) => e);
    expect(isVapiApiError(anonymous) && anonymous.status).toBe(401);

    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(emulatorPrivateKey);
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
