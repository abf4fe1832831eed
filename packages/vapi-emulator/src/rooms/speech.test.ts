import { describe, expect, it } from 'vitest';
import { rms, type Pcm } from './pcm.js';
import { createSpeaker, SPEECH_SAMPLE_RATE, speechTones, synthesise } from './speech.js';
import { tone } from './testing.js';

describe('synthesise (the emulator\u2019s tone voice)', () => {
  it('speaks each word as an audible tone, timed like speech', async () => {
    const pcm = await synthesise('Hello there. How can I help you today?');
    expect(pcm).not.toBeNull();
    expect(pcm!.sampleRate).toBe(SPEECH_SAMPLE_RATE);
    const seconds = pcm!.samples.length / pcm!.sampleRate;
    // Eight words and a full stop: about as long as saying them, not a blip nor a minute.
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(5);
    expect(rms(pcm!.samples)).toBeGreaterThan(0.01);
  });

  it('is longer for more words, the same for the same text, and nothing for no words', async () => {
    expect(speechTones('one two three').length).toBeGreaterThan(speechTones('one').length);
    expect(speechTones('Hello there.')).toEqual(speechTones('Hello there.'));
    expect(await synthesise(' … ')).toBeNull();
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
