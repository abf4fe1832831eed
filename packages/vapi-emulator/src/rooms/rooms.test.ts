import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { componentProblems } from '../contract.js';
import {
  createRooms,
  createSpeaker,
  ROOM_CLOSE,
  type RoomCall,
  type Rooms,
  type RoomsOptions,
  type RoomStatusUpdate,
} from './index.js';
import { concat, createPcmDecoder, encodePcm, rms } from './pcm.js';
import { frames, silence, tone } from './testing.js';

const RATE = 16_000;
const FRAME_MS = 20;

/**
 * Virtual time for every room in this file: it moves only when a test moves it, running the rooms'
 * clock on the way, so audio streams in frames without real 20 ms waits.
 */
const clock = (() => {
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
const clocked = { now: clock.now, schedule: clock.schedule };

/** A call client over a real socket: records JSON messages and audio, and can await either. */
class CallClient {
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

let rooms: Rooms;
let base: string;
const statuses: [string, RoomStatusUpdate][] = [];
const calls = new Map<string, RoomCall>([
  ['call-1', { firstMessage: 'Hi.' }],
  ['call-2', { firstMessage: 'Hi.' }],
  ['call-3', { firstMessage: 'Hi.' }],
  ['call-4', { firstMessage: 'Hi.' }],
  ['call-8k', { firstMessage: 'Hi.', audioFormat: { format: 'mulaw', sampleRate: 8000 } }],
]);

let closeMain: () => Promise<void>;

/** Rooms on a server of their own, on the virtual clock, at `url` (ws://…/rooms). */
async function serveRooms(options: Omit<RoomsOptions, 'upgradeWebSocket'>) {
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

beforeAll(async () => {
  ({
    rooms,
    url: base,
    close: closeMain,
  } = await serveRooms({
    resolveCall: (id) => calls.get(id) ?? null,
    onStatus: (id, update) => statuses.push([id, update]),
    maxRooms: 2,
  }));
});

afterAll(() => closeMain());

describe('call rooms over a real WebSocket', () => {
  it('greets, echoes an utterance after the silence and ends on hangup, freeing the room', async () => {
    const client = new CallClient(`${base}/call-1`);
    await client.opened;
    await client.message({ type: 'listening' });
    expect(client.messages[1]).toEqual({ type: 'status-update', status: 'in-progress' });
    await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }));
    const greeting = client.audioSince(0);
    expect(greeting.length).toBeGreaterThan(0.2 * RATE);
    expect(rms(greeting)).toBeGreaterThan(0.01);
    expect(rooms.isOpen('call-1')).toBe(true);

    const before = client.chunks.length;
    const said = client.messages.length;
    const utterance = tone(1000, RATE, 0.3);
    // A caller answers a moment after the greeting ends (the assistant does not listen while it speaks).
    await client.stream(concat([silence(300, RATE), utterance, silence(900, RATE)]));
    await client.message({ type: 'speech-update', status: 'stopped', role: 'user' }, said);
    // The caller's speech has no transcript: nothing recognises it offline.
    expect(client.messages.filter((m) => m.type === 'transcript' && m.role === 'user')).toEqual([]);
    await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }, said));
    const echo = client.audioSince(before);
    expect(rms(echo)).toBeGreaterThan(0.01);
    // About the right length: the utterance, give or take a frame of detection.
    expect(Math.abs(echo.length - utterance.length)).toBeLessThanOrEqual(0.04 * RATE);

    client.ws.send(JSON.stringify({ type: 'hangup' }));
    await client.message({ type: 'status-update', status: 'ended' });
    expect(client.messages.at(-1)).toEqual({
      type: 'status-update',
      status: 'ended',
      endedReason: 'customer-ended-call',
    });
    expect((await client.closed).code).toBe(ROOM_CLOSE.normal);
    expect(rooms.isOpen('call-1')).toBe(false);
    expect(rooms.stats()).toMatchObject({ rooms: 0, bufferedSamples: 0 });
    expect(statuses.filter(([id]) => id === 'call-1').map(([, u]) => u)).toEqual([
      { status: 'in-progress' },
      { status: 'ended', endedReason: 'customer-ended-call' },
    ]);
  });

  it('speaks a say message, then ends the call when asked to', async () => {
    calls.set('call-say', { firstMessage: 'Hi.' });
    const client = new CallClient(`${base}/call-say`);
    await client.message({ type: 'listening' });
    await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }));
    const before = client.chunks.length;
    const said = client.messages.length;
    client.ws.send(JSON.stringify({ type: 'say', message: 'Goodbye for now.', endCallAfterSpoken: true }));
    // Synthesis takes real time: the clock runs only once the assistant starts speaking (else the
    // virtual idle time-out would pass meanwhile). It is captioned as spoken, the final at the end.
    await client.message({ type: 'speech-update', status: 'started', role: 'assistant' }, said);
    await client.run(
      client.message(
        { type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: 'Goodbye for now.' },
        said,
      ),
    );
    const ended = await client.run(client.message({ type: 'status-update', status: 'ended' }, said));
    expect(ended).toMatchObject({ endedReason: 'assistant-ended-call' });
    expect(rms(client.audioSince(before))).toBeGreaterThan(0.01);
    expect((await client.closed).code).toBe(ROOM_CLOSE.normal);
  });

  it('tells a caller reconnecting to an ended call that it is over, even once the provider forgets it', async () => {
    // A call of its own, ended here, so the test passes alone and in any order.
    calls.set('call-gone', { firstMessage: 'Hi.' });
    const first = new CallClient(`${base}/call-gone`);
    await first.message({ type: 'listening' });
    first.ws.send(JSON.stringify({ type: 'hangup' }));
    await first.closed;
    calls.delete('call-gone');
    const client = new CallClient(`${base}/call-gone`);
    const closed = await client.closed;
    expect(closed.code).toBe(ROOM_CLOSE.ended);
    expect(JSON.parse(closed.reason)).toMatchObject({ error: 'call_ended' });
  });

  it('refuses the room over the limit with 1013 and a JSON reason, and frees a room when the caller leaves', async () => {
    const a = new CallClient(`${base}/call-2`);
    const b = new CallClient(`${base}/call-3`);
    await Promise.all([a.message({ type: 'listening' }), b.message({ type: 'listening' })]);
    const c = new CallClient(`${base}/call-4`);
    const refused = await c.closed;
    expect(refused.code).toBe(ROOM_CLOSE.tryAgainLater);
    expect(JSON.parse(refused.reason)).toMatchObject({ error: 'room_limit' });
    expect(c.messages).toEqual([expect.objectContaining({ type: 'error', error: 'room_limit' })]);

    a.ws.close();
    await a.closed;
    await b.run(b.until(() => !rooms.isOpen('call-2')));
    expect(rooms.stats().rooms).toBe(1);
    expect(statuses).toContainEqual(['call-2', { status: 'ended', endedReason: 'customer-ended-call' }]);
    const d = new CallClient(`${base}/call-4`);
    await d.message({ type: 'listening' });
    d.ws.send(JSON.stringify({ type: 'end-call' }));
    b.ws.send(JSON.stringify({ type: 'end-call' }));
    await Promise.all([d.closed, b.closed]);
  });

  it('refuses a second connection to a call in progress, and an unknown call', async () => {
    const owner = new CallClient(`${base}/call-8k`);
    await owner.message({ type: 'listening' });
    const intruder = new CallClient(`${base}/call-8k`);
    expect((await intruder.closed).code).toBe(ROOM_CLOSE.busy);
    // The room speaks µ-law at 8 kHz: one byte per sample.
    await owner.until(() => owner.chunks.length > 0);
    owner.ws.send(JSON.stringify({ type: 'hangup' }));
    await owner.closed;
    const stranger = new CallClient(`${base}/no-such-call`);
    const closed = await stranger.closed;
    expect(closed.code).toBe(ROOM_CLOSE.unknownCall);
  });

  it('closes with 1009 on an oversized frame and answers plain HTTP with 426 and bad ids with 400', async () => {
    calls.set('call-big', {});
    const client = new CallClient(`${base}/call-big`);
    await client.message({ type: 'listening' });
    client.ws.send(new Uint8Array(70_000));
    expect((await client.closed).code).toBe(ROOM_CLOSE.tooBig);
    const http = base.replace('ws:', 'http:');
    const plain = await fetch(`${http}/call-2`);
    expect(plain.status).toBe(426);
    expect(await plain.json()).toMatchObject({ error: 'upgrade_required' });
    expect((await fetch(`${http}/bad%20id`)).status).toBe(400);
  });

  it('ends a call nobody speaks in after the idle time-out, with silence-timed-out', async () => {
    const {
      rooms: quiet,
      url: quietUrl,
      close,
    } = await serveRooms({
      idleTimeoutMs: 1000,
      resolveCall: () => ({ firstMessage: 'Hi.' }),
    });
    try {
      const client = new CallClient(`${quietUrl}/idle-call`);
      await client.message({ type: 'listening' });
      await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }));
      // A microphone streaming silence is not activity.
      await client.stream(silence(3000, RATE));
      expect(await client.message({ type: 'status-update', status: 'ended' })).toMatchObject({
        endedReason: 'silence-timed-out',
      });
      expect((await client.closed).code).toBe(ROOM_CLOSE.normal);
      expect(quiet.stats().rooms).toBe(0);
    } finally {
      await close();
    }
  });
  it('synthesises at most two say messages at once, refusing a third with say_busy', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const speaker = createSpeaker(async (text) => {
      if (text !== 'Hi.') await slow;
      return { samples: tone(60, RATE), sampleRate: RATE };
    });
    const { url: busyUrl, close } = await serveRooms({
      speaker,
      resolveCall: () => ({ firstMessage: 'Hi.' }),
    });
    try {
      const client = new CallClient(`${busyUrl}/say-call`);
      await client.message({ type: 'listening' });
      await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }));
      const said = client.messages.length;
      for (const message of ['One.', 'Two.', 'Three.'])
        client.ws.send(JSON.stringify({ type: 'say', message }));
      expect(await client.message({ type: 'error', error: 'say_busy' }, said)).toMatchObject({
        message: expect.stringContaining('previous say messages'),
      });
      release();
      await client.run(client.message({ type: 'transcript', role: 'assistant', transcript: 'One.' }, said));
      await client.run(client.message({ type: 'transcript', role: 'assistant', transcript: 'Two.' }, said));
      const transcripts = client.messages
        .slice(said)
        .filter((m) => m.type === 'transcript')
        .map((m) => m.transcript);
      expect(transcripts).not.toContain('Three.');
      expect(client.messages.slice(said).filter((m) => m.type === 'error')).toHaveLength(1);
      client.ws.send(JSON.stringify({ type: 'hangup' }));
      await client.closed;
    } finally {
      await close();
    }
  });
});

describe('a question typed during a call', () => {
  it('is answered like a chat: spoken, captioned (partials then final) in the documented message shapes', async () => {
    const asked: [string, string][] = [];
    const speaker = createSpeaker(async (text) => ({
      // About 60 ms a word, like speech.
      samples: tone(60 * text.split(' ').length, RATE),
      sampleRate: RATE,
    }));
    const { url: answeringUrl, close } = await serveRooms({
      speaker,
      resolveCall: () => ({ firstMessage: 'Hi, ask me about refunds.' }),
      answer: async (callId, question) => {
        asked.push([callId, question]);
        return 'From refunds.md: "Refunds are paid to the original card within 14 days of the return."';
      },
    });
    try {
      const client = new CallClient(`${answeringUrl}/typed-call`);
      await client.message({ type: 'listening' });
      await client.run(client.message({ type: 'transcript', transcriptType: 'final', role: 'assistant' }));
      await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }));
      const said = client.messages.length;
      const before = client.chunks.length;
      client.ws.send(
        JSON.stringify({
          type: 'add-message',
          message: { role: 'user', content: 'How long do refunds take?' },
        }),
      );
      const answer = 'From refunds.md: "Refunds are paid to the original card within 14 days of the return."';
      await client.message({ type: 'speech-update', status: 'started', role: 'assistant' }, said);
      await client.run(
        client.message({ type: 'transcript', transcriptType: 'final', transcript: answer }, said),
      );
      await client.run(client.message({ type: 'speech-update', status: 'stopped', role: 'assistant' }, said));
      await client.until(
        () => client.messages.slice(said).filter((m) => m.type === 'conversation-update').length >= 2,
      );
      expect(asked).toEqual([['typed-call', 'How long do refunds take?']]);
      expect(rms(client.audioSince(before))).toBeGreaterThan(0.01);

      const since = client.messages.slice(said);
      const partials = since.filter((m) => m.transcriptType === 'partial').map((m) => m.transcript as string);
      // A few words at a time, each growing the last, all before the final.
      expect(partials.length).toBeGreaterThan(2);
      partials.forEach((p, i) =>
        expect(answer.startsWith(p) && (i === 0 || p.length > partials[i - 1]!.length)).toBe(true),
      );
      expect(since.map((m) => m.type)).toEqual([
        'conversation-update',
        'speech-update',
        ...partials.map(() => 'transcript'),
        'transcript',
        'speech-update',
        'conversation-update',
      ]);
      expect(since.at(-1)).toMatchObject({
        messagesOpenAIFormatted: [
          { role: 'assistant', content: 'Hi, ask me about refunds.' },
          { role: 'user', content: 'How long do refunds take?' },
          { role: 'assistant', content: answer },
        ],
      });
      // The official SDK's message shapes, as the provider's document describes them.
      const shapes = {
        transcript: 'ClientMessageTranscript',
        'speech-update': 'ClientMessageSpeechUpdate',
        'conversation-update': 'ClientMessageConversationUpdate',
      } as const;
      for (const m of client.messages.filter((x) => String(x.type) in shapes))
        expect(componentProblems(shapes[m.type as keyof typeof shapes], m), JSON.stringify(m)).toEqual([]);

      client.ws.send(JSON.stringify({ type: 'hangup' }));
      await client.closed;
    } finally {
      await close();
    }
  });
});

describe('call rooms per caller address', () => {
  let limited: Rooms;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({
      rooms: limited,
      url,
      close,
    } = await serveRooms({
      resolveCall: () => ({ firstMessage: 'Hi.' }),
      maxRooms: 10,
      maxRoomsPerAddress: 2,
    }));
  });

  afterAll(() => close());

  /** A caller on a loopback address of its own (Linux answers the whole 127/8). */
  const from = (localAddress: string, callId: string) => new CallClient(`${url}/${callId}`, { localAddress });

  it('refuses one address its room over maxRoomsPerAddress with 1013, while another address still gets one', async () => {
    const mine = [from('127.0.0.1', 'a-1'), from('127.0.0.1', 'a-2')];
    await Promise.all(mine.map((c) => c.message({ type: 'listening' })));
    const third = from('127.0.0.1', 'a-3');
    const refused = await third.closed;
    expect(refused.code).toBe(ROOM_CLOSE.tryAgainLater);
    expect(JSON.parse(refused.reason)).toMatchObject({ error: 'address_room_limit' });
    expect(third.messages).toEqual([expect.objectContaining({ type: 'error', error: 'address_room_limit' })]);
    // X-Forwarded-For is not an address: the socket's is.
    const forged = new CallClient(`${url}/a-4`, {
      localAddress: '127.0.0.1',
      headers: { 'X-Forwarded-For': '203.0.113.5' },
    });
    expect((await forged.closed).code).toBe(ROOM_CLOSE.tryAgainLater);

    const other = from('127.0.0.2', 'b-1');
    await other.message({ type: 'listening' });
    expect(limited.stats().rooms).toBe(3);

    // A room ended frees its address's place.
    mine[0]!.ws.send(JSON.stringify({ type: 'hangup' }));
    await mine[0]!.closed;
    await mine[1]!.run(mine[1]!.until(() => !limited.isOpen('a-1')));
    const again = from('127.0.0.1', 'a-5');
    await again.message({ type: 'listening' });
    for (const c of [mine[1]!, other, again]) c.ws.send(JSON.stringify({ type: 'hangup' }));
    await Promise.all([mine[1]!.closed, other.closed, again.closed]);
  });
});
