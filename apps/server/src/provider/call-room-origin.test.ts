// The call rooms' WebSocket upgrade obeys EMBED_ORIGINS like the HTTP routes of
// the widget. A browser page of another site is refused (403) before the upgrade and before the
// call is claimed; Engage's own pages, a listed site and programs without an Origin (the SDK in
// Node) connect. On a real server, with real WebSocket handshakes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startServer, type RunningServer } from '../server.js';

const LISTED = 'https://shop.example';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'engage-room-origin-'));
  server = await startServer(
    parseConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'room-origin-admin',
      EMBED_ORIGINS: LISTED,
    }),
    createLogger('silent'),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function createCall(): Promise<string> {
  const res = await fetch(`${server.url}/api/calls/websocket`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ assistantId: 'asst_index' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { transport: { websocketCallUrl: string } }).transport.websocketCallUrl;
}

/**
 * A WebSocket handshake sending `origin` as a browser would: 'joined' once the room speaks to it
 * (then hung up), or the HTTP status that refused the upgrade.
 */
function join(url: string, origin?: string): Promise<'joined' | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('message', () => {
      ws.close();
      resolve('joined');
    });
    ws.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed (${code}) before anything was said`)));
  });
}

describe('the call room upgrade and EMBED_ORIGINS', () => {
  it('refuses a page of another site before the upgrade, and the call stays free for its caller', async () => {
    const url = await createCall();
    expect(await join(url, 'https://evil.example')).toBe(403);
    // The refusal's body says why (for whoever reads it; a browser only sees the handshake fail).
    const res = await fetch(url.replace(/^ws/, 'http'), { headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'origin_not_allowed' });
    // Refused before the claim: the real caller still joins.
    expect(await join(url)).toBe('joined');
  });

  it('refuses look-alikes of a listed site and opaque origins', async () => {
    const url = await createCall();
    for (const origin of ['http://shop.example', 'https://shop.example.evil.example', 'null'])
      expect(await join(url, origin)).toBe(403);
  });

  it('lets a listed site join', async () => {
    expect(await join(await createCall(), LISTED)).toBe('joined');
  });

  it("lets Engage's own pages join", async () => {
    expect(await join(await createCall(), server.url)).toBe('joined');
  });

  it('lets a program without an Origin join (the voice SDK in Node)', async () => {
    expect(await join(await createCall())).toBe('joined');
  });
});
