import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket, FakeStream, fakeBrowserApis } from './rooms/websocket-fakes.js';
import { setup, until } from './test-harness.js';

// The assistant's conversation messages reach the app through `message` exactly as sent, over both
// transports, as @vapi-ai/web passes them (it parses each app message and emits it unchanged); and
// what the app sends with send() reaches the room. Shapes from the provider's ClientMessage* schemas.

const CONVERSATION_MESSAGES = [
  { type: 'speech-update', status: 'started', role: 'assistant', turn: 0 },
  { type: 'transcript', role: 'assistant', transcriptType: 'partial', transcript: 'Hello' },
  { type: 'transcript', role: 'assistant', transcriptType: 'partial', transcript: 'Hello, how can' },
  {
    type: 'transcript[transcriptType="final"]',
    role: 'assistant',
    transcriptType: 'final',
    transcript: 'Hello, how can I help?',
  },
  { type: 'speech-update', status: 'stopped', role: 'assistant', turn: 0 },
  { type: 'model-output', output: 'The office opens at nine.', turnId: 'turn-1' },
  {
    type: 'conversation-update',
    messages: [
      { role: 'bot', message: 'Hello, how can I help?', time: 1, secondsFromStart: 0.5 },
      { role: 'user', message: 'When do you open?', time: 2, secondsFromStart: 3 },
    ],
    messagesOpenAIFormatted: [
      { role: 'assistant', content: 'Hello, how can I help?' },
      { role: 'user', content: 'When do you open?' },
    ],
  },
  { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'When do you open?' },
];

const ADD_MESSAGE = {
  type: 'add-message',
  message: { role: 'user', content: 'When do you open?' },
} as const;

describe('conversation messages over a Daily room', () => {
  it('passes transcript, speech-update, model-output and conversation-update through `message`, in order and unchanged', async () => {
    const t = setup({ record: ['call-start', 'message'] });
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    daily.remoteJoins();
    daily.appMessage('listening');
    for (const message of CONVERSATION_MESSAGES) daily.appMessage(message);
    expect(t.names()).toEqual(['call-start', ...CONVERSATION_MESSAGES.map(() => 'message')]);
    expect(t.payloads('message')).toEqual(CONVERSATION_MESSAGES);
  });

  it("send({type:'add-message'}) reaches the room as one JSON app message", async () => {
    const t = setup({ record: false });
    await t.vapi.start('assistant-1');
    t.vapi.send(ADD_MESSAGE);
    expect(t.daily.last.sentMessages).toEqual([ADD_MESSAGE]);
    const sent = t.daily.last.log.filter((c) => c.method === 'sendAppMessage').map((c) => c.args[0]);
    expect(sent).toEqual([JSON.stringify(ADD_MESSAGE)]);
  });
});

describe('conversation messages over a WebSocket room', () => {
  beforeEach(() => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:worklet');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    FakeSocket.last = undefined;
  });
  afterEach(() => vi.restoreAllMocks());

  /** A call whose web call is a WebSocket room, joined over the fake socket. */
  async function joinedOverWebSocket() {
    const t = setup({
      record: ['call-start', 'message', 'call-end'],
      webCall: { id: 'call-ws', webCallUrl: 'ws://server.test/provider/rooms/call-ws' },
      options: { browserApis: fakeBrowserApis(async () => new FakeStream()) },
    });
    const started = t.vapi.start('assistant-1');
    await until(() => FakeSocket.last !== undefined, 'the room socket');
    const ws = FakeSocket.last!;
    expect(ws.url).toBe('ws://server.test/provider/rooms/call-ws');
    ws.open();
    expect(await started).toMatchObject({ id: 'call-ws' });
    return { ...t, ws };
  }

  it('passes the same messages through `message`, in order and unchanged', async () => {
    const t = await joinedOverWebSocket();
    t.ws.receive('{"type":"listening"}');
    for (const message of CONVERSATION_MESSAGES) t.ws.receive(JSON.stringify(message));
    expect(t.names()).toEqual(['call-start', ...CONVERSATION_MESSAGES.map(() => 'message')]);
    expect(t.payloads('message')).toEqual(CONVERSATION_MESSAGES);
    await t.vapi.stop();
  });

  it("send({type:'add-message'}) goes on the socket as one JSON text frame", async () => {
    const t = await joinedOverWebSocket();
    t.ws.receive('{"type":"listening"}');
    t.vapi.send(ADD_MESSAGE);
    const text = t.ws.sent.filter((frame): frame is string => typeof frame === 'string');
    expect(text.map((frame) => JSON.parse(frame))).toContainEqual(ADD_MESSAGE);
    await t.vapi.stop();
  });
});
