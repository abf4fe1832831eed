import { describe, expect, it } from 'vitest';
import { advance, assistant, audio, messages, RATE, stream } from './echo-test-harness.js';
import { concat, encodePcm } from './pcm.js';
import { silence, tone } from './testing.js';

describe('EchoAssistant: control messages and limits', () => {
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
