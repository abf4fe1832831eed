import { describe, expect, it } from 'vitest';
import {
  conversationReducer,
  emptyConversation,
  MAX_TURN_CHARS,
  MAX_TURNS,
  readTranscript,
  turnText,
  type Conversation,
  type ConversationAction,
} from './conversation';

const partial = (role: 'assistant' | 'user', transcript: string): ConversationAction => ({
  type: 'message',
  message: { type: 'transcript', role, transcriptType: 'partial', transcript },
});
const final = (role: 'assistant' | 'user', transcript: string): ConversationAction => ({
  type: 'message',
  message: { type: 'transcript', role, transcriptType: 'final', transcript },
});
const speech = (role: 'assistant' | 'user', status: 'started' | 'stopped'): ConversationAction => ({
  type: 'message',
  message: { type: 'speech-update', role, status },
});

const run = (...actions: ConversationAction[]) => actions.reduce(conversationReducer, emptyConversation);
const shown = (state: Conversation) => state.turns.map((turn) => `${turn.role}: ${turnText(turn)}`);

describe('the conversation reducer', () => {
  it('replaces partials of a turn with the next partial, then with the final', () => {
    const a = run(partial('assistant', 'Hello'));
    expect(shown(a)).toEqual(['assistant: Hello']);
    const b = conversationReducer(a, partial('assistant', 'Hello, how can'));
    expect(shown(b)).toEqual(['assistant: Hello, how can']);
    const c = conversationReducer(b, final('assistant', 'Hello, how can I help?'));
    expect(shown(c)).toEqual(['assistant: Hello, how can I help?']);
    expect(c.turns[0]).toMatchObject({ pending: '', settled: 'Hello, how can I help?' });
  });

  it("keeps one speaker's successive sentences in one turn until the other speaks", () => {
    const state = run(
      final('assistant', 'Hello!'),
      partial('assistant', 'How can'),
      final('assistant', 'How can I help?'),
      final('user', 'When do you open?'),
      final('assistant', 'At nine.'),
    );
    expect(shown(state)).toEqual([
      'assistant: Hello! How can I help?',
      'user: When do you open?',
      'assistant: At nine.',
    ]);
  });

  it('speech-update started begins a new turn of that speaker; stopped lets a late final land', () => {
    const state = run(
      speech('assistant', 'started'),
      final('assistant', 'Welcome.'),
      speech('assistant', 'stopped'),
      speech('assistant', 'started'),
      partial('assistant', 'You said'),
      speech('assistant', 'stopped'),
      final('assistant', 'You said hello.'),
    );
    expect(shown(state)).toEqual(['assistant: Welcome.', 'assistant: You said hello.']);
  });

  it('words cut off when the speaker starts again stay as they were heard', () => {
    const state = run(partial('assistant', 'The office opens'), speech('assistant', 'started'));
    expect(state.turns[0]).toMatchObject({ settled: 'The office opens', pending: '', open: false });
    expect(shown(conversationReducer(state, final('assistant', 'Sorry.')))).toEqual([
      'assistant: The office opens',
      'assistant: Sorry.',
    ]);
  });

  it("finishes an assistant's sentence in its own turn when the visitor cuts in", () => {
    const state = run(
      partial('assistant', 'Our hours are'),
      partial('user', 'wait'),
      final('assistant', 'Our hours are nine to five.'),
      final('user', 'wait a second'),
    );
    expect(shown(state)).toEqual(['assistant: Our hours are nine to five.', 'user: wait a second']);
  });

  it('a typed question is a turn of its own, the answer a new turn, and the echo is not shown twice', () => {
    const state = run(
      final('assistant', 'Hello!'),
      { type: 'typed', text: '  When do you open? ' },
      partial('user', 'when do you'),
      final('user', 'When do you open?'),
      final('assistant', 'At nine.'),
    );
    expect(shown(state)).toEqual(['assistant: Hello!', 'user: When do you open?', 'assistant: At nine.']);
    expect(state.turns[1]).toMatchObject({ typed: true });
    expect(run({ type: 'typed', text: '   ' })).toBe(emptyConversation);
  });

  it('announces each final once, and never a partial', () => {
    const a = run(partial('assistant', 'Hel'));
    expect(a.latestFinal).toBeNull();
    const b = conversationReducer(a, final('assistant', 'Hello.'));
    expect(b.latestFinal).toEqual({ seq: 1, role: 'assistant', text: 'Hello.' });
    const c = conversationReducer(b, partial('assistant', 'How'));
    expect(c.latestFinal).toBe(b.latestFinal);
    const d = conversationReducer(c, final('assistant', 'Hello.'));
    expect(d.latestFinal?.seq).toBe(2);
    expect(conversationReducer(d, { type: 'typed', text: 'Hi' }).latestFinal).toBe(d.latestFinal);
  });

  it('leaves model-output, conversation-update, status messages and malformed transcripts out', () => {
    const state = run(
      { type: 'message', message: { type: 'model-output', output: 'At nine.' } },
      {
        type: 'message',
        message: { type: 'conversation-update', messagesOpenAIFormatted: [{ role: 'user', content: 'x' }] },
      },
      { type: 'message', message: { type: 'status-update', status: 'in-progress' } },
      { type: 'message', message: { type: 'transcript', role: 'system', transcript: 'x' } },
      { type: 'message', message: { type: 'transcript', role: 'user', transcript: 42 } },
      { type: 'message', message: { type: 'transcript', role: 'user', transcript: '   ' } },
      {
        type: 'message',
        message: { type: 'transcript', role: 'user', transcriptType: 'x', transcript: 'y' },
      },
      { type: 'message', message: 'listening' },
      { type: 'message', message: null },
    );
    expect(state).toBe(emptyConversation);
  });

  it("reads the provider's typed final transcript and a transcript without transcriptType as final", () => {
    expect(
      readTranscript({
        type: 'transcript[transcriptType="final"]',
        role: 'assistant',
        transcriptType: 'final',
        transcript: ' Hi \n there ',
      }),
    ).toEqual({ role: 'assistant', final: true, text: 'Hi there' });
    expect(readTranscript({ type: 'transcript', role: 'user', transcript: 'Hi' })).toMatchObject({
      final: true,
    });
  });

  it(`keeps at most ${MAX_TURNS} turns (the newest) of at most ${MAX_TURN_CHARS} characters (the latest words)`, () => {
    const actions: ConversationAction[] = [];
    for (let i = 0; i < MAX_TURNS + 20; i++) actions.push(final(i % 2 ? 'user' : 'assistant', `turn ${i}`));
    const state = run(...actions);
    expect(state.turns).toHaveLength(MAX_TURNS);
    expect(turnText(state.turns[0]!)).toBe('turn 20');
    expect(turnText(state.turns.at(-1)!)).toBe(`turn ${MAX_TURNS + 19}`);

    const long = run(final('assistant', 'a'.repeat(MAX_TURN_CHARS)), final('assistant', 'the end'));
    const text = turnText(long.turns[0]!);
    expect(text).toHaveLength(MAX_TURN_CHARS);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('the end')).toBe(true);
  });

  it('reset empties the conversation', () => {
    expect(conversationReducer(run(final('user', 'hi')), { type: 'reset' })).toBe(emptyConversation);
  });
});
