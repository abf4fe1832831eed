import { describe, expect, it } from 'vitest';
import { advance, assistant, audio, GREETING, messages, RATE, stream } from './echo-test-harness.js';
import { concat, rms } from './pcm.js';
import { silence, tone } from './testing.js';

describe('EchoAssistant', () => {
  it('on connect says listening, reports in-progress and starts the greeting at once', () => {
    const a = assistant();
    const effects = a.start(0);
    expect(messages(effects)).toEqual([
      { type: 'listening' },
      { type: 'status-update', status: 'in-progress' },
      { type: 'speech-update', status: 'started', role: 'assistant' },
    ]);
    // Sent ahead of real time by the lead (100 ms), in 20 ms frames.
    expect(audio(effects).length).toBe(0.1 * RATE);
    expect(effects.filter((e) => e.type === 'audio').every((e) => e.samples.length === 320)).toBe(true);
  });

  it('paces the greeting in real time and reports when it has been spoken', () => {
    const a = assistant();
    const first = a.start(0);
    const rest = advance(a, 0, 600);
    const sent = concat([audio(first), audio(rest.effects)]);
    expect(sent).toEqual(GREETING);
    expect(messages(rest.effects)).toContainEqual({
      type: 'speech-update',
      status: 'stopped',
      role: 'assistant',
    });
    expect(a.speaking).toBe(false);
  });

  it('captions its speech as it plays: partials a few words at a time, then the final and the conversation', () => {
    const text = 'Welcome to the store, ask me about refunds or shipping today';
    const a = assistant({ greeting: { text, samples: tone(2000, RATE) }, epochOffsetMs: 1_000_000 });
    const effects = [...a.start(0), ...advance(a, 0, 2100).effects];
    const said = messages(effects).filter((m) => m.type !== 'listening' && m.type !== 'status-update');
    const partials = said.filter((m) => m.transcriptType === 'partial').map((m) => m.transcript as string);
    expect(partials).toEqual([
      'Welcome to the',
      'Welcome to the store, ask me',
      'Welcome to the store, ask me about refunds or',
    ]);
    // Paced by the audio: the first words are captioned after their share of it has played.
    const firstPartial = effects.findIndex(
      (e) => e.type === 'json' && e.message.transcriptType === 'partial',
    );
    expect(audio(effects.slice(0, firstPartial)).length).toBeGreaterThan(0.3 * RATE);
    expect(said.slice(-3)).toEqual([
      { type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: text },
      { type: 'speech-update', status: 'stopped', role: 'assistant' },
      {
        type: 'conversation-update',
        messages: [{ role: 'bot', message: text, time: 1_000_000, endTime: 1_002_000, secondsFromStart: 0 }],
        messagesOpenAIFormatted: [{ role: 'assistant', content: text }],
      },
    ]);
  });

  it('answers a typed user message: asks for the answer, then speaks and captions it', () => {
    const a = assistant({ greeting: null });
    a.start(0);
    const asked = a.receiveText(
      JSON.stringify({ type: 'add-message', message: { role: 'user', content: 'Refunds?' } }),
      40,
    );
    expect(asked).toEqual([
      {
        type: 'json',
        message: {
          type: 'conversation-update',
          messages: [{ role: 'user', message: 'Refunds?', time: 40, endTime: 40, secondsFromStart: 0.04 }],
          messagesOpenAIFormatted: [{ role: 'user', content: 'Refunds?' }],
        },
      },
      {
        type: 'record',
        message: { role: 'user', message: 'Refunds?', time: 40, endTime: 40, secondsFromStart: 0.04 },
      },
      { type: 'answer', question: 'Refunds?' },
    ]);
    const answer = 'From Refunds: "Refunds are paid within 14 days."';
    const spoken = [
      ...a.say(tone(1500, RATE), answer, false, 100, 'answer'),
      ...advance(a, 100, 1600).effects,
    ];
    expect(audio(spoken).length).toBe(1.5 * RATE);
    expect(messages(spoken)).toContainEqual({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: answer,
    });
    expect(messages(spoken).at(-1)).toMatchObject({
      type: 'conversation-update',
      messagesOpenAIFormatted: [
        { role: 'user', content: 'Refunds?' },
        { role: 'assistant', content: answer },
      ],
    });
    // The answer is told once to the provider's record, with its start and end times.
    expect(spoken.filter((e) => e.type === 'record')).toEqual([
      {
        type: 'record',
        message: { role: 'bot', message: answer, time: 100, endTime: 1600, secondsFromStart: 0.1 },
      },
    ]);
    // Not answered: a message added silently, or a system one.
    const silent = {
      type: 'add-message',
      message: { role: 'user', content: 'Note' },
      triggerResponseEnabled: false,
    };
    expect(a.receiveText(JSON.stringify(silent), 2000).map((e) => e.type)).toEqual(['json', 'record']);
    // An answer that could not be synthesised is still captioned.
    expect(messages(a.say(null, 'Plain text.', false, 2100, 'answer')).map((m) => m.type)).toEqual([
      'transcript',
      'conversation-update',
      'error',
    ]);
  });

  it('keeps what was said of an answer cut short by a hang-up or a dropped connection', () => {
    const answer = 'Refunds are paid to the original card within fourteen days of the return.';
    const hungUp = assistant({ greeting: null });
    hungUp.start(0);
    hungUp.say(tone(2000, RATE), answer, false, 100, 'answer');
    // Half of the audio played: about half of the words were heard.
    const ended = [...advance(hungUp, 100, 1000).effects, ...hungUp.receiveText('{"type":"hangup"}', 1100)];
    const kept = ended.filter((e) => e.type === 'record');
    expect(kept).toHaveLength(1);
    const said = (kept[0] as { message: { message: string } }).message.message;
    expect(answer.startsWith(said)).toBe(true);
    expect(said.split(' ').length).toBeGreaterThanOrEqual(4);
    expect(said.length).toBeLessThan(answer.length);
    expect(messages(ended).at(-1)).toMatchObject({ type: 'status-update', status: 'ended' });

    const dropped = assistant({ greeting: null });
    dropped.start(0);
    dropped.say(tone(2000, RATE), answer, false, 100, 'answer');
    advance(dropped, 100, 1000);
    expect(dropped.disconnect(1100)).toEqual([
      expect.objectContaining({ type: 'record', message: expect.objectContaining({ role: 'bot' }) }),
    ]);
    // Nothing heard yet: nothing kept.
    const early = assistant({ greeting: null });
    early.start(0);
    early.say(tone(2000, RATE), answer, false, 100, 'answer');
    expect(early.disconnect(100)).toEqual([]);
  });

  it('echoes an utterance after 700 ms of silence, with its length and level (and no user transcript)', () => {
    const a = assistant({ greeting: null });
    a.start(0);
    const spoken = tone(1200, RATE, 0.25);
    const talk = stream(a, spoken, 0);
    expect(messages(talk.effects)).toContainEqual({ type: 'speech-update', status: 'started', role: 'user' });
    const before = stream(a, silence(680, RATE), talk.at);
    expect(audio(before.effects).length).toBe(0);
    const after = stream(a, silence(20, RATE), before.at);
    expect(messages(after.effects)).toEqual(
      expect.arrayContaining([
        { type: 'speech-update', status: 'stopped', role: 'user' },
        { type: 'speech-update', status: 'started', role: 'assistant' },
      ]),
    );
    // Nothing recognises speech offline: no transcript of it, and the echo is not captioned either.
    const rest = advance(a, after.at, 1400);
    expect(
      [...messages(after.effects), ...messages(rest.effects)].filter((m) => m.type === 'transcript'),
    ).toEqual([]);
    const echoed = concat([audio(after.effects), audio(rest.effects)]);
    expect(echoed.length).toBe(spoken.length);
    expect(rms(echoed)).toBeGreaterThan(0.01);
  });

  it('does not listen while it speaks, so its own voice picked up by the microphone is never echoed', () => {
    const a = assistant();
    a.start(0);
    // The caller's microphone hears the greeting (500 ms) and a little after it.
    const overlap = stream(a, tone(700, RATE), 0);
    expect(messages(overlap.effects)).not.toContainEqual({
      type: 'speech-update',
      status: 'started',
      role: 'user',
    });
    const quiet = stream(a, silence(1000, RATE), overlap.at);
    expect(messages(quiet.effects).filter((m) => m.type === 'transcript' && m.role === 'user')).toEqual([]);
    // Once it has finished, the caller is heard again.
    const talk = stream(a, tone(300, RATE), quiet.at);
    expect(messages(talk.effects)).toContainEqual({ type: 'speech-update', status: 'started', role: 'user' });
  });
});
