import { describe, expect, it } from 'vitest';
import { concat } from './pcm.js';
import { frames, silence, tone } from './testing.js';
import { EnergyVad, type VadEvent } from './vad.js';

const RATE = 16_000;

/** Feeds audio in 20 ms frames, as a caller's microphone would, and collects the events. */
function feed(vad: EnergyVad, audio: Int16Array, frameMs = 20): VadEvent[] {
  return frames(audio, frameMs, RATE).flatMap((f) => vad.push(f));
}

describe('EnergyVad', () => {
  it('starts on voice and ends after 700 ms of silence, giving the utterance without the silence', () => {
    const vad = new EnergyVad({ sampleRate: RATE });
    const utterance = tone(1000, RATE);
    const events = feed(vad, concat([silence(300, RATE), utterance, silence(690, RATE)]));
    expect(events).toEqual([{ type: 'speech-start' }]);
    const end = feed(vad, silence(20, RATE));
    expect(end).toHaveLength(1);
    const last = end[0] as Extract<VadEvent, { type: 'speech-end' }>;
    expect(last.reason).toBe('silence');
    expect(last.utterance.length).toBe(utterance.length);
    expect(vad.state).toBe('quiet');
  });

  it('keeps one utterance across pauses shorter than the silence window', () => {
    const vad = new EnergyVad({ sampleRate: RATE });
    const audio = concat([tone(400, RATE), silence(500, RATE), tone(400, RATE), silence(800, RATE)]);
    const ends = feed(vad, audio).filter((e) => e.type === 'speech-end');
    expect(ends).toHaveLength(1);
    expect((ends[0] as Extract<VadEvent, { type: 'speech-end' }>).utterance.length).toBe(
      Math.round(1.3 * RATE),
    );
  });

  it('ignores clicks shorter than the minimum speech and sounds below the threshold', () => {
    const vad = new EnergyVad({ sampleRate: RATE });
    expect(feed(vad, concat([tone(40, RATE), silence(1000, RATE)]))).toEqual([]);
    expect(feed(vad, tone(2000, RATE, 0.005))).toEqual([]);
  });

  it('works whatever the size of the frames it is given, even odd ones', () => {
    const vad = new EnergyVad({ sampleRate: RATE });
    const events = feed(vad, concat([tone(500, RATE), silence(800, RATE)]), 7.3);
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'speech-end']);
  });

  it('cuts an endless utterance at the maximum length, bounding its buffer', () => {
    const vad = new EnergyVad({ sampleRate: RATE, maxUtteranceMs: 2000 });
    let maxBuffered = 0;
    const events: VadEvent[] = [];
    for (const f of frames(tone(5000, RATE), 20, RATE)) {
      events.push(...vad.push(f));
      maxBuffered = Math.max(maxBuffered, vad.bufferedSamples);
    }
    const ends = events.filter((e) => e.type === 'speech-end');
    expect(ends.length).toBe(2);
    expect(ends.every((e) => e.reason === 'max-length')).toBe(true);
    expect(maxBuffered).toBeLessThanOrEqual(2 * RATE);
  });

  it('flushes an utterance under way when the caller stops sending audio', () => {
    const vad = new EnergyVad({ sampleRate: RATE });
    feed(vad, tone(300, RATE));
    const [end] = vad.flush();
    expect(end).toMatchObject({ type: 'speech-end', reason: 'flush' });
    expect(vad.flush()).toEqual([]);
  });

  it('refuses an impossible sample rate', () => {
    expect(() => new EnergyVad({ sampleRate: 100 })).toThrow(RangeError);
  });
});
