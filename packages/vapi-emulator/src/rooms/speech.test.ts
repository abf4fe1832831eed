import { describe, expect, it } from 'vitest';
import { rms, type Pcm } from './pcm.js';
import { createSpeaker, synthesise } from './speech.js';
import { tone } from './testing.js';

describe('synthesise (mespeak in a worker thread)', () => {
  it('speaks English text as audible 16-bit PCM', async () => {
    const pcm = await synthesise('Hello there.');
    expect(pcm).not.toBeNull();
    expect(pcm!.sampleRate).toBe(22_050);
    expect(pcm!.samples.length).toBeGreaterThan(0.3 * 22_050);
    expect(rms(pcm!.samples)).toBeGreaterThan(0.01);
  });
});

describe('createSpeaker', () => {
  function counting(result: () => Pcm | null) {
    const calls: string[] = [];
    const synth = async (text: string) => {
      calls.push(text);
      return result();
    };
    return { calls, synth };
  }

  it('resamples to the room rate and synthesises each text once, even when asked concurrently', async () => {
    const { calls, synth } = counting(() => ({ sampleRate: 22_050, samples: tone(1000, 22_050) }));
    const speaker = createSpeaker(synth);
    const [a, b, c] = await Promise.all([
      speaker.speak('hi', 16_000),
      speaker.speak('hi', 16_000),
      speaker.speak('hi', 8_000),
    ]);
    expect(a!.length).toBe(16_000);
    expect(b).toBe(a);
    expect(c!.length).toBe(8_000);
    expect(calls).toEqual(['hi']);
  });

  it('does not remember a failure', async () => {
    let fail = true;
    const { calls, synth } = counting(() =>
      fail ? null : { sampleRate: 16_000, samples: tone(100, 16_000) },
    );
    const speaker = createSpeaker(synth);
    expect(await speaker.speak('x', 16_000)).toBeNull();
    fail = false;
    expect(await speaker.speak('x', 16_000)).not.toBeNull();
    expect(calls).toEqual(['x', 'x']);
  });

  it('keeps a bounded cache, forgetting the least recently used text', async () => {
    const { calls, synth } = counting(() => ({ sampleRate: 16_000, samples: tone(10, 16_000) }));
    const speaker = createSpeaker(synth, 4);
    for (const text of ['a', 'b', 'c']) await speaker.speak(text, 16_000);
    await speaker.speak('a', 16_000);
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
