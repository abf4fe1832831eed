import type { WSContext, WSEvents } from 'hono/ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRooms, createSpeaker, type Rooms } from './index.js';
import { tone } from './testing.js';

const RATE = 16_000;
let rooms: Rooms | undefined;

afterEach(() => rooms?.close());

/** A room over a fake socket whose send backlog (`bufferedAmount`) the test sets. */
async function roomWithBacklog(bufferedAmount: number) {
  let events: WSEvents<unknown> | undefined;
  rooms = createRooms({
    upgradeWebSocket: async (_c, e) => {
      events = e;
      return new Response(null);
    },
    resolveCall: () => ({ firstMessage: 'Hi.' }),
    speaker: createSpeaker(async () => ({ samples: tone(2000, RATE), sampleRate: RATE })),
  });
  await rooms.app.request('/call-1', { headers: { Upgrade: 'websocket' } });
  const raw = { bufferedAmount };
  const sent: (string | ArrayBufferLike | Uint8Array)[] = [];
  const ws = {
    raw,
    readyState: 1,
    send: (data: string | ArrayBufferLike | Uint8Array) => void sent.push(data),
    close: () => undefined,
  } as unknown as WSContext<unknown>;
  events!.onOpen?.(new Event('open'), ws);
  const audio = () => sent.filter((d) => typeof d !== 'string');
  const text = () => sent.filter((d): d is string => typeof d === 'string');
  return { raw, audio, text };
}

describe('a caller whose socket cannot keep up', () => {
  it('gets no audio frames while its backlog is over 512 KiB, the control messages still, and audio again once it drains', async () => {
    const { raw, audio, text } = await roomWithBacklog(600 * 1024);
    expect(text().map((m) => (JSON.parse(m) as { type: string }).type)).toContain('listening');
    // The greeting's first 100 ms would have gone out at once.
    expect(audio()).toHaveLength(0);
    raw.bufferedAmount = 0;
    await vi.waitFor(() => expect(audio().length).toBeGreaterThan(0), { timeout: 5_000 });
  });

  it('sends the greeting at once to a caller that keeps up', async () => {
    const { audio } = await roomWithBacklog(0);
    expect(audio().length).toBeGreaterThan(0);
  });
});
