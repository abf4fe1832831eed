import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@engage/db';
import { openPglite } from '@engage/db';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer } from '../../auth/http/server-harness.js';
import { allMigrations, startServer, type RunningServer } from '../../server.js';
import { parseConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { DEFAULT_MAX_JSON_BYTES, isMultipartUpload, jsonBodyLimit } from './body-limit.js';

// A 5 MiB JSON body on a running server, over real HTTP: every route answers 413 before reading it,
// anonymous ones included, whether the body declares its length or arrives chunked.

const KEYS = { public: 'pk-body-limit', private: 'sk-body-limit' };
const FIVE_MIB = 5 * 1024 * 1024;
const TOO_LARGE = {
  error: 'payload_too_large',
  message: `The request body is too large: at most ${DEFAULT_MAX_JSON_BYTES} bytes.`,
};

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'engage-body-limit-'));
  server = await startServer(
    parseConfig({
      PORT: '0',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'body-limit-admin',
      EMULATOR_PUBLIC_KEY: KEYS.public,
      EMULATOR_PRIVATE_KEY: KEYS.private,
    }),
    createLogger('silent'),
  );
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `{"assistantId":"asst_index","pad":"xxx…"}` of exactly `size` bytes. */
function bigJson(size: number): Uint8Array<ArrayBuffer> {
  const head = '{"assistantId":"asst_index","pad":"';
  const tail = '"}';
  return new TextEncoder().encode(head + 'x'.repeat(size - head.length - tail.length) + tail);
}

/** The same bytes as a stream, so fetch sends them chunked, without a Content-Length. */
function chunked(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}

type Route = [method: string, path: string, headers: Record<string, string>];
const json = { 'Content-Type': 'application/json' };
const publicKey = { ...json, Authorization: `Bearer ${KEYS.public}` };
const privateKey = { ...json, Authorization: `Bearer ${KEYS.private}` };
const signedIn = { ...json, Authorization: 'Bearer not-a-real-token' };

const ROUTES: Route[] = [
  ['POST', '/api/calls/websocket', json],
  ['POST', '/auth/v1/signup', json],
  ['POST', '/auth/v1/token?grant_type=password', json],
  ['POST', '/auth/v1/recover', json],
  ['POST', '/auth/v1/verify', json],
  ['PUT', '/auth/v1/user', signedIn],
  ['POST', '/auth/v1/admin/users', signedIn],
  ['POST', '/api/admin/users', json],
  ['POST', '/api/admin/users', signedIn],
  ['PUT', '/api/admin/users/u1/role', signedIn],
  ['POST', '/provider/call/web', publicKey],
  ['POST', '/provider/call', privateKey],
  ['POST', '/provider/assistant', privateKey],
  ['PATCH', '/provider/assistant/asst_index', privateKey],
  ['POST', '/provider/tool', privateKey],
  ['POST', '/provider/knowledge-base', privateKey],
  ['POST', '/provider/tool', json],
  ['POST', '/api/provider/tool', json],
  ['POST', '/api/provider/tool', signedIn],
  ['PATCH', '/api/provider/assistant/asst_index', signedIn],
  // Lying about the type: only a multipart upload to the file routes has the larger cap.
  ['POST', '/provider/file', privateKey],
  ['POST', '/provider/file', { ...privateKey, 'Content-Type': 'text/plain' }],
  ['POST', '/api/provider/file', signedIn],
  ['POST', '/provider/assistant', { ...privateKey, 'Content-Type': 'multipart/form-data; boundary=x' }],
  ['POST', '/auth/v1/signup', { 'Content-Type': 'text/plain' }],
  ['POST', '/auth/v1/token?grant_type=password', {}],
  ['POST', '/healthz', json],
  ['POST', '/no/such/page', json],
  ['DELETE', '/api/no-such-route', json],
];

describe('MAX_JSON_BYTES on a running server', () => {
  const body = bigJson(FIVE_MIB);

  it.each(ROUTES)('%s %s (%o) with Content-Length answers 413', async (method, route, headers) => {
    const res = await fetch(`${server.url}${route}`, { method, headers, body });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
  });

  it.each(ROUTES)('%s %s (%o) chunked answers 413', async (method, route, headers) => {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers,
      body: chunked(body),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
  });

  it('lets bodies under the limit through, chunked or not', async () => {
    const small = JSON.stringify({ assistantId: 'asst_index' });
    const declared = await fetch(`${server.url}/api/calls/websocket`, {
      method: 'POST',
      headers: json,
      body: small,
    });
    expect(declared.status).toBe(201);
    const streamed = await fetch(`${server.url}/api/calls/websocket`, {
      method: 'POST',
      headers: json,
      body: chunked(new TextEncoder().encode(small)),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(201);
  });

  it('keeps the upload cap of POST /provider/file: a 2 MiB multipart file is stored', async () => {
    const form = new FormData();
    form.set('file', new File(['a'.repeat(2 * 1024 * 1024)], 'big.txt', { type: 'text/plain' }));
    const res = await fetch(`${server.url}/provider/file`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.private}` },
      body: form,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ bytes: 2 * 1024 * 1024 });
  });
});

describe('jsonBodyLimit', () => {
  const app = new Hono();
  app.use('*', jsonBodyLimit({ maxBytes: 100, exempt: isMultipartUpload(['/up']) }));
  app.post('*', async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }));
  const send = (route: string, type: string, size: number) =>
    app.request(route, { method: 'POST', headers: { 'Content-Type': type }, body: 'x'.repeat(size) });

  it('exempts only multipart bodies to the listed paths', async () => {
    expect((await send('/up', 'multipart/form-data; boundary=b', 1000)).status).toBe(200);
    expect((await send('/up', 'MULTIPART/FORM-DATA;boundary=b', 1000)).status).toBe(200);
    expect((await send('/up', 'application/json', 1000)).status).toBe(413);
    expect((await send('/up', 'multipart/form-database', 1000)).status).toBe(413);
    expect((await send('/up/', 'multipart/form-data; boundary=b', 1000)).status).toBe(413);
    expect((await send('/other', 'multipart/form-data; boundary=b', 1000)).status).toBe(413);
    expect((await send('/other', 'application/json', 100)).status).toBe(200);
  });

  it('never asks a GET for its body (on Node that builds a whole fetch Request)', async () => {
    const reading = new Hono();
    reading.use('*', jsonBodyLimit({ maxBytes: 100 }));
    reading.get('*', (c) => c.text('page'));
    const request = new Request('http://engage.test/config.json');
    let asked = false;
    Object.defineProperty(request, 'body', {
      get: () => {
        asked = true;
        return null;
      },
    });
    expect((await reading.fetch(request)).status).toBe(200);
    expect(asked).toBe(false);
  });
});

describe('MAX_JSON_BYTES above the default reaches the auth routes too', () => {
  it('takes a 1.5 MiB sign-up body when MAX_JSON_BYTES is 2 MiB, and refuses 3 MiB in GoTrue\u2019s shape', async () => {
    const db = await openPglite();
    await migrate(db, allMigrations());
    const srv = await startAuthTestServer(db, { env: { MAX_JSON_BYTES: String(2 * 1024 * 1024) } });
    try {
      const signup = (bytes: number) =>
        fetch(`${srv.url}/auth/v1/signup`, {
          method: 'POST',
          headers: { apikey: srv.anonKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            email: 'big@example.com',
            password: 'a-long-password-1',
            pad: 'x'.repeat(bytes),
          }),
        });
      // Read past the limit: an answer other than 413 (the body is otherwise a normal sign-up).
      expect((await signup(1.5 * 1024 * 1024)).status).not.toBe(413);
      const refused = await signup(3 * 1024 * 1024);
      expect(refused.status).toBe(413);
    } finally {
      await srv.close();
      await db.close();
    }
  });
});
