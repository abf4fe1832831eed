import { describe, expect, it } from 'vitest';
import type { AssistantEffect, EchoAssistantOptions } from './assistant-effects.js';
import { EchoAssistant } from './echo-assistant.js';
import { concat, encodePcm, rms } from './pcm.js';
import { frames, silence, tone } from './testing.js';

const RATE = 16_000;
const GREETING = tone(500, RATE, 0.2, 300);

function assistant(options: Partial<EchoAssistantOptions> = {}) {
  return new EchoAssistant({
    format: { format: 'pcm_s16le', sampleRate: RATE },
    greeting: { text: 'Hello there', samples: GREETING },
    ...options,
  });
}

const messages = (effects: AssistantEffect[]) =>
  effects.flatMap((e) => (e.type === 'json' ? [e.message] : []));
const audio = (effects: AssistantEffect[]) =>
  concat(effects.flatMap((e) => (e.type === 'audio' ? [e.samples] : [])));

/** Streams audio in real time: one 20 ms frame per 20 ms of the clock, ticking as it goes. */
function stream(
  a: EchoAssistant,
  samples: Int16Array,
  from: number,
): { effects: AssistantEffect[]; at: number } {
  const effects: AssistantEffect[] = [];
  let t = from;
  for (const f of frames(samples, 20, RATE)) {
    t += 20;
    effects.push(...a.receiveAudio(encodePcm(f), t));
  }
  return { effects, at: t };
}

/** Lets the clock run with no caller audio. */
function advance(a: EchoAssistant, from: number, ms: number): { effects: AssistantEffect[]; at: number } {
  const effects: AssistantEffect[] = [];
  for (let t = from + 20; t <= from + ms; t += 20) effects.push(...a.tick(t));
  return { effects, at: from + ms };
}

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
      { type: 'answer', question: 'Refunds?' },
    ]);
    const answer = 'From refunds.md: "Refunds are paid within 14 days."';
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
    // Not answered: a message added silently, or a system one.
    const silent = {
      type: 'add-message',
      message: { role: 'user', content: 'Note' },
      triggerResponseEnabled: false,
    };
    expect(a.receiveText(JSON.stringify(silent), 2000).map((e) => e.type)).toEqual(['json']);
    // An answer that could not be synthesised is still captioned.
    expect(messages(a.say(null, 'Plain text.', false, 2100, 'answer')).map((m) => m.type)).toEqual([
      'transcript',
      'conversation-update',
      'error',
    ]);
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

  it('ends on hangup and on end-call with status ended and a normal close', () => {
    for (const type of ['hangup', 'end-call']) {
      const a = assistant();
      a.start(0);
      const effects = a.receiveText(JSON.stringify({ type }), 10);
      expect(effects).toEqual([
        {
          type: 'json',
          message: { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' },
        },
        { type: 'close', code: 1000, reason: 'call ended' },
      ]);
      expect(a.phase).toBe('ended');
      expect(a.bufferedSamples).toBe(0);
      expect(a.receiveAudio(encodePcm(tone(20, RATE)), 20)).toEqual([]);
    }
  });

  it('asks for a say message to be synthesised, speaks it, and ends the call after it when asked', () => {
    const a = assistant({ greeting: null });
    a.start(0);
    expect(
      a.receiveText(JSON.stringify({ type: 'say', message: 'Goodbye', endCallAfterSpoken: true }), 0),
    ).toEqual([{ type: 'speak', text: 'Goodbye', endCallAfterSpoken: true }]);
    const effects = a.say(tone(70, RATE), 'Goodbye', true, 0);
    const rest = advance(a, 0, 200);
    expect(messages(rest.effects)).toContainEqual({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Goodbye',
    });
    expect(audio(effects).length + audio(rest.effects).length).toBe(70 * 16);
    expect(messages(rest.effects)).toContainEqual({
      type: 'status-update',
      status: 'ended',
      endedReason: 'assistant-ended-call',
    });
    expect(rest.effects.at(-1)).toEqual({ type: 'close', code: 1000, reason: 'call ended' });
  });

  it('says so when a say message could not be synthesised', () => {
    const a = assistant({ greeting: null });
    a.start(0);
    expect(messages(a.say(null, 'x', false, 0))).toEqual([
      { type: 'error', error: 'say_failed', message: 'The assistant could not speak that text.' },
    ]);
    expect(a.phase).toBe('active');
  });

  it('answers bad text frames with an error message and keeps the call', () => {
    const a = assistant();
    a.start(0);
    expect(messages(a.receiveText('not json', 0))[0]).toMatchObject({
      type: 'error',
      error: 'invalid_message',
    });
    expect(messages(a.receiveText('{"type":"dance"}', 0))[0]).toMatchObject({
      type: 'error',
      message: expect.stringContaining('"dance"'),
    });
    expect(messages(a.receiveText('{"type":"say","message":""}', 0))[0]).toMatchObject({ type: 'error' });
    expect(
      messages(a.receiveText('{"type":"add-message","message":{"role":"user","content":""}}', 0))[0],
    ).toMatchObject({
      type: 'error',
      error: 'invalid_message',
    });
    expect(
      messages(
        a.receiveText(
          JSON.stringify({ type: 'add-message', message: { role: 'user', content: 'x'.repeat(2001) } }),
          0,
        ),
      )[0],
    ).toMatchObject({ type: 'error' });
    expect(
      messages(a.receiveText('{"type":"add-message","message":{"role":"system","content":"x"}}', 0)),
    ).toEqual([expect.objectContaining({ type: 'conversation-update' })]);
    expect(a.phase).toBe('active');
  });

  it('ends after the idle time-out with silence-timed-out, but not while someone speaks', () => {
    const a = assistant({ greeting: null, idleTimeoutMs: 5000 });
    a.start(0);
    // Silent microphone frames are not activity.
    const quiet = stream(a, silence(4000, RATE), 0);
    expect(messages(quiet.effects)).toEqual([]);
    const talk = stream(a, tone(500, RATE), quiet.at);
    const tail = advance(a, talk.at, 4900);
    expect(messages(tail.effects).some((m) => m.status === 'ended')).toBe(false);
    const end = advance(a, tail.at, 3000);
    expect(messages(end.effects)).toContainEqual({
      type: 'status-update',
      status: 'ended',
      endedReason: 'silence-timed-out',
    });
  });

  it('ends at the maximum duration', () => {
    const a = assistant({ maxDurationMs: 1000 });
    a.start(0);
    expect(messages(a.tick(1000))).toContainEqual({
      type: 'status-update',
      status: 'ended',
      endedReason: 'exceeded-max-duration',
    });
  });

  it('echoes what it heard when the caller stops sending audio mid-utterance', () => {
    const a = assistant({ greeting: null });
    a.start(0);
    const talk = stream(a, tone(400, RATE), 0);
    const early = advance(a, talk.at, 1400);
    expect(messages(early.effects)).not.toContainEqual({
      type: 'speech-update',
      status: 'stopped',
      role: 'user',
    });
    const later = advance(a, early.at, 200);
    expect(messages(later.effects)).toContainEqual({
      type: 'speech-update',
      status: 'stopped',
      role: 'user',
    });
    expect(audio(later.effects).length).toBeGreaterThan(0);
  });

  it('caps the audio queued for playback, cutting a longer echo', () => {
    const a = assistant({ greeting: null, maxQueuedMs: 1000 });
    a.start(0);
    const talk = stream(a, concat([tone(3000, RATE), silence(720, RATE)]), 0);
    expect(a.bufferedSamples).toBeLessThanOrEqual(RATE);
    const rest = advance(a, talk.at, 3000);
    expect(audio(talk.effects).length + audio(rest.effects).length).toBe(RATE);
  });
});
