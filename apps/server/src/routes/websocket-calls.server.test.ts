import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig } from '../config.js';
import { createLogger } from '../lib/logger.js';
import { startServer, type RunningServer } from '../server.js';

// The whole chain on a real server: POST /api/calls/websocket creates the call at the embedded
// provider with its private key, and the browser-facing room URL it answers is a live echo room.

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'engage-ws-calls-'));
  server = await startServer(
    parseConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'ws-calls-admin' }),
    createLogger('silent'),
  );
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Socket {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(url: string, localAddress?: string): Socket {
  const ws = new WebSocket(url, localAddress ? { localAddress } : {});
  const messages: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data, binary) => {
    if (!binary) messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    ws,
    messages,
    closed,
    next: (match) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found) return resolve(found);
          if (ws.readyState === WebSocket.CLOSED) return reject(new Error('closed while waiting'));
          waiters.push(check);
        };
        check();
      }),
  };
}

async function createCall(
  base = server.url,
): Promise<{ id: string; transport: { websocketCallUrl: string } }> {
  const res = await fetch(`${base}/api/calls/websocket`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ assistantId: 'asst_index' }),
  });
  expect(res.status).toBe(201);
  return res.json() as Promise<{ id: string; transport: { websocketCallUrl: string } }>;
}

describe('WebSocket calls on a running server', () => {
  it('creates a call whose room greets, and records the end when the caller hangs up', async () => {
    const call = await createCall();
    expect(call.transport.websocketCallUrl).toBe(
      `${server.url.replace('http', 'ws')}/provider/rooms/${call.id}`,
    );
    const socket = connect(call.transport.websocketCallUrl);
    await socket.next((m) => m.type === 'listening');
    await socket.next((m) => m.type === 'transcript' && m.role === 'assistant');
    socket.ws.send(JSON.stringify({ type: 'hangup' }));
    expect(await socket.next((m) => m.status === 'ended')).toMatchObject({
      endedReason: 'customer-ended-call',
    });
    expect((await socket.closed).code).toBe(1000);

    const { emulatorPrivateKey } = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as {
      emulatorPrivateKey: string;
    };
    const record = async () =>
      (await (
        await fetch(`${server.url}/provider/call/${call.id}`, {
          headers: { Authorization: `Bearer ${emulatorPrivateKey}` },
        })
      ).json()) as { status: string; endedReason?: string };
    await expect.poll(record).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
  });

  it('refuses an assistant that configuration does not allow', async () => {
    const res = await fetch(`${server.url}/api/calls/websocket`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ assistantId: 'asst_someone_else' }),
    });
    expect(res.status).toBe(403);
  });

  it('refuses a huge frame before holding it (close 1009)', async () => {
    const call = await createCall();
    const socket = connect(call.transport.websocketCallUrl);
    await socket.next((m) => m.type === 'listening');
    socket.ws.send(new Uint8Array(1024 * 1024));
    expect((await socket.closed).code).toBe(1009);
  });

  it('closes rooms still open when the server stops, instead of hanging', async () => {
    // A server of its own: stopping the shared one would fail whichever test runs after this one.
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-ws-stop-'));
    const stopping = await startServer(
      parseConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'ws-stop-admin' }),
      createLogger('silent'),
    );
    try {
      const call = await createCall(stopping.url);
      const socket = connect(call.transport.websocketCallUrl);
      await socket.next((m) => m.type === 'listening');
      await stopping.close();
      expect((await socket.closed).code).toBe(1001);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CALL_ROOMS_MAX on a running server', () => {
  it('refuses the room over the configured limit with 1013 and a JSON reason', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-ws-rooms-max-'));
    const limited = await startServer(
      parseConfig({
        PORT: '0',
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: 'ws-rooms-max-admin',
        CALL_ROOMS_MAX: '1',
      }),
      createLogger('silent'),
    );
    try {
      const create = async () => {
        const res = await fetch(`${limited.url}/api/calls/websocket`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ assistantId: 'asst_index' }),
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { transport: { websocketCallUrl: string } }).transport.websocketCallUrl;
      };
      const first = connect(await create());
      await first.next((m) => m.type === 'listening');
      const second = connect(await create());
      const refused = await second.closed;
      expect(refused.code).toBe(1013);
      expect(JSON.parse(refused.reason)).toMatchObject({ error: 'room_limit' });
      first.ws.send(JSON.stringify({ type: 'hangup' }));
      await first.closed;
    } finally {
      await limited.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** POST over a socket bound to `localAddress` (Linux answers the whole 127/8 on loopback). */
function postFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('one client address cannot take every call room (public key, POST /provider/call/web)', () => {
  it('limits calls per minute and rooms held per address with the defaults; another address still gets a room', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-ws-per-address-'));
    const limited = await startServer(
      parseConfig({
        PORT: '0',
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: 'ws-per-address-admin',
        EMULATOR_PUBLIC_KEY: 'pk-per-address',
        EMULATOR_PRIVATE_KEY: 'sk-per-address',
      }),
      createLogger('silent'),
    );
    const sockets: Socket[] = [];
    let forged = 0;
    try {
      const webCall = (from: string) =>
        postFrom(
          from,
          `${limited.url}/provider/call/web`,
          {
            'Content-Type': 'application/json',
            Authorization: 'Bearer pk-per-address',
            // Never believed: the socket's address is the caller's.
            'X-Forwarded-For': `198.51.100.${++forged % 250}`,
          },
          JSON.stringify({ assistantId: 'asst_index' }),
        );
      // The attack: one client asks for call after call (53 took all 50 rooms before).
      const urls: string[] = [];
      let refused: Awaited<ReturnType<typeof webCall>> | null = null;
      for (let i = 0; i < 53 && !refused; i++) {
        const res = await webCall('127.0.0.1');
        if (res.status === 201) urls.push((res.json as { webCallUrl: string }).webCallUrl);
        else refused = res;
      }
      expect(urls).toHaveLength(20);
      expect(refused?.status).toBe(429);
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused?.json).toMatchObject({ error: 'rate_limited' });

      // Its rooms: five are held at once, the sixth is refused like the global limit, with its own reason.
      for (const url of urls.slice(0, 5)) {
        const socket = connect(url, '127.0.0.1');
        sockets.push(socket);
        await socket.next((m) => m.type === 'listening');
      }
      const sixth = connect(urls[5]!, '127.0.0.1');
      const closed = await sixth.closed;
      expect(closed.code).toBe(1013);
      expect(JSON.parse(closed.reason)).toMatchObject({ error: 'address_room_limit' });

      // Someone else is unaffected: a call and a room of their own.
      const other = await webCall('127.0.0.2');
      expect(other.status).toBe(201);
      const theirs = connect((other.json as { webCallUrl: string }).webCallUrl, '127.0.0.2');
      sockets.push(theirs);
      await theirs.next((m) => m.type === 'listening');
    } finally {
      for (const socket of sockets) socket.ws.close();
      await limited.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the server passes its own limits to the embedded emulator', () => {
  it('honours EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS, EMULATOR_CHATS_PER_MINUTE_PER_ADDRESS and a MAX_JSON_BYTES above the emulator default', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-emulator-settings-'));
    const server = await startServer(
      parseConfig({
        PORT: '0',
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: 'emulator-settings-admin',
        EMULATOR_PUBLIC_KEY: 'pk-settings',
        EMULATOR_PRIVATE_KEY: 'sk-settings',
        EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS: '3',
        EMULATOR_CHATS_PER_MINUTE_PER_ADDRESS: '2',
        MAX_JSON_BYTES: String(3 * 1024 * 1024),
      }),
      createLogger('silent'),
    );
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await postFrom(
          '127.0.0.1',
          `${server.url}/provider/call/web`,
          { 'Content-Type': 'application/json', Authorization: 'Bearer pk-settings' },
          JSON.stringify({ assistantId: 'asst_index' }),
        );
        statuses.push(res.status);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);

      const chats: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await postFrom(
          '127.0.0.1',
          `${server.url}/provider/chat/web`,
          { 'Content-Type': 'application/json', Authorization: 'Bearer pk-settings' },
          JSON.stringify({ assistantId: 'asst_index', input: 'hello' }),
        );
        chats.push(res.status);
      }
      expect(chats).toEqual([201, 201, 429]);

      // 2 MiB is over the emulator's own default (1 MiB) but within the server's setting: not a 413.
      const big = await fetch(`${server.url}/provider/assistant`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-settings' },
        body: JSON.stringify({ name: 'big', metadata: { blob: 'x'.repeat(2 * 1024 * 1024) } }),
      });
      expect(big.status).not.toBe(413);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
