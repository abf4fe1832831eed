import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import WebSocket from 'ws';
import { createRooms, type RoomsOptions } from './index.js';
import { concat, createPcmDecoder, encodePcm } from './pcm.js';
import { frames } from './testing.js';

/** The call rooms' socket tests: rooms served on a virtual clock, and a call client over a real socket. */

export const RATE = 16_000;
export const FRAME_MS = 20;

/**
 * Virtual time for every room in this file: it moves only when a test moves it, running the rooms'
 * clock on the way, so audio streams in frames without real 20 ms waits.
 */
export const clock = (() => {
  let t = 0;
  const ticks = new Set<{ tick: () => void; everyMs: number; due: number }>();
  return {
    now: () => t,
    schedule(tick: () => void, everyMs: number) {
      const entry = { tick, everyMs, due: t + everyMs };
      ticks.add(entry);
      return () => void ticks.delete(entry);
    },
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        const next = [...ticks].sort((a, b) => a.due - b.due)[0];
        if (!next || next.due > end) break;
        t = next.due;
        next.due += next.everyMs;
        next.tick();
      }
      t = end;
    },
  };
})();
export const clocked = { now: clock.now, schedule: clock.schedule };

/** A call client over a real socket: records JSON messages and audio, and can await either. */
export class CallClient {
  readonly ws: WebSocket;
  readonly messages: Record<string, unknown>[] = [];
  readonly chunks: { at: number; samples: Int16Array }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  #waiters: (() => void)[] = [];
  #decode = createPcmDecoder();

  constructor(url: string, options?: WebSocket.ClientOptions) {
    this.ws = new WebSocket(url, options);
    this.ws.binaryType = 'nodebuffer';
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.ws.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.#notify();
      }),
    );
    this.ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.chunks.push({ at: clock.now(), samples: this.#decode(new Uint8Array(data)) });
      else this.messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
      this.#notify();
    });
  }

  #notify() {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once `check` holds, re-checking on every message. */
  until<T>(check: () => T | undefined | false): Promise<T> {
    return new Promise((resolve, reject) => {
      const test = () => {
        const value = check();
        if (value) return resolve(value);
        if (this.ws.readyState === WebSocket.CLOSED) return reject(new Error('socket closed while waiting'));
        this.#waiters.push(test);
      };
      test();
    });
  }

  message(match: Record<string, unknown>, after = 0) {
    return this.until(() =>
      this.messages.slice(after).find((m) => Object.entries(match).every(([k, v]) => m[k] === v)),
    );
  }

  /**
   * Resolves once everything sent before it has been handled by the room and everything the room
   * sent before answering has arrived here: a ping's pong travels behind both (or the socket closed).
   */
  flush(): Promise<void> {
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.ws.off('pong', done);
        this.#notify();
        resolve();
      };
      this.ws.once('pong', done);
      void this.closed.then(done);
      this.ws.ping();
    });
  }

  /** Streams audio frame by frame, virtual time moving 20 ms per frame once the room has it. */
  async stream(samples: Int16Array) {
    for (const f of frames(samples, FRAME_MS, RATE)) {
      if (this.ws.readyState !== WebSocket.OPEN) return;
      this.ws.send(encodePcm(f));
      await this.flush();
      clock.advance(FRAME_MS);
      await this.flush();
    }
  }

  /** Moves virtual time a frame at a time until `awaited` settles (at most `limitMs` of it). */
  async run<T>(awaited: Promise<T>, limitMs = 120_000): Promise<T> {
    let settled = false;
    awaited.then(
      () => (settled = true),
      () => (settled = true),
    );
    await this.flush();
    for (let spent = 0; !settled && spent < limitMs; spent += FRAME_MS) {
      clock.advance(FRAME_MS);
      await this.flush();
    }
    return awaited;
  }

  audioSince(index: number) {
    return concat(this.chunks.slice(index).map((c) => c.samples));
  }
}

/** Rooms on a server of their own, on the virtual clock, at `url` (ws://…/rooms). */
export async function serveRooms(options: Omit<RoomsOptions, 'upgradeWebSocket'>) {
  const app = new Hono();
  const nodeWs = createNodeWebSocket({ app });
  const rooms = createRooms({ upgradeWebSocket: nodeWs.upgradeWebSocket, ...clocked, ...options });
  app.route('/rooms', rooms.app);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  nodeWs.injectWebSocket(server);
  return {
    rooms,
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/rooms`,
    close: async () => {
      rooms.close();
      await new Promise((r) => server.close(r));
    },
  };
}
