import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startServer } from '../server.js';
import { connect, postFrom, type Socket } from './websocket-harness.js';

// The limits of WebSocket calls on a real server: CALL_ROOMS_MAX, the per-address limits of the
// public key's POST /provider/call/web, and the emulator's own limits passed from the server's.

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
