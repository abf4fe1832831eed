import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpeaker, ROOM_CLOSE, type RoomCall, type Rooms, type RoomStatusUpdate } from './index.js';
import { concat, rms } from './pcm.js';
import { CallClient, RATE, serveRooms } from './room-test-harness.js';
import { silence, tone } from './testing.js';

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
