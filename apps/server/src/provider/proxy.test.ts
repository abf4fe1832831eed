import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PRIVATE_KEY, proxyWithUpstream, signedIn, verify } from './proxy-harness.js';
import { providerProxy } from './proxy.js';

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

  it('refuses the reported encoded-backslash bypass with 400', async () => {
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
