import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentProblems } from '../contract.js';
import { createSpeaker, ROOM_CLOSE, type Rooms } from './index.js';
import { rms } from './pcm.js';
import { CallClient, RATE, serveRooms } from './room-test-harness.js';
import { tone } from './testing.js';

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
        return 'From Refunds: "Refunds are paid to the original card within 14 days of the return."';
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
      const answer = 'From Refunds: "Refunds are paid to the original card within 14 days of the return."';
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
