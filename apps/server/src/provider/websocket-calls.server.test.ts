import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startServer, type RunningServer } from '../server.js';
import { connect } from './websocket-harness.js';

// The whole chain on a real server: POST /api/calls/websocket creates the call at the embedded
// provider with its private key, and the browser-facing room URL it answers is a live echo room.
// The limits on rooms and on one address: websocket-calls-limits.server.test.ts.

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
