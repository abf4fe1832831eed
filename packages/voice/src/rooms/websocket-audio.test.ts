// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  CAPTURE_PROCESSOR,
  CAPTURE_WORKLET_SOURCE,
  levelOf,
  pcmToFloat,
  PlaybackSchedule,
} from './websocket-audio.js';

interface Posted {
  pcm: ArrayBuffer;
  level: number;
}

/** Runs the worklet source as the audio thread would, with the globals it expects. */
function loadCapture(contextRate: number, targetRate = 16_000, frameSamples = 320) {
  const posted: Posted[] = [];
  let Processor:
    (new (options: unknown) => { process(inputs: Float32Array[][]): boolean; port: FakePort }) | undefined;
  class FakePort {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    postMessage(data: Posted) {
      posted.push(data);
    }
  }
  class AudioWorkletProcessor {
    port = new FakePort();
  }
  const registerProcessor = (name: string, ctor: typeof Processor) => {
    expect(name).toBe(CAPTURE_PROCESSOR);
    Processor = ctor;
  };
  new Function('AudioWorkletProcessor', 'registerProcessor', 'sampleRate', CAPTURE_WORKLET_SOURCE)(
    AudioWorkletProcessor,
    registerProcessor,
    contextRate,
  );
  const processor = new Processor!({ processorOptions: { targetRate, frameSamples } });
  return { processor, posted };
}

/** Microphone blocks of 128 samples of a sine, at the context's rate. */
function sineBlocks(rate: number, seconds: number, amplitude: number, hz = 300): Float32Array[] {
  const total = Math.round(rate * seconds);
  const blocks: Float32Array[] = [];
  for (let start = 0; start < total; start += 128)
    blocks.push(
      Float32Array.from(
        { length: 128 },
        (_, i) => amplitude * Math.sin((2 * Math.PI * hz * (start + i)) / rate),
      ),
    );
  return blocks;
}

describe('the capture worklet', () => {
  for (const rate of [48_000, 44_100, 16_000]) {
    it(`turns ${rate} Hz microphone audio into 20 ms frames of 16 kHz little-endian PCM`, () => {
      const { processor, posted } = loadCapture(rate);
      for (const block of sineBlocks(rate, 1, 0.5)) expect(processor.process([[block]])).toBe(true);
      // One second of audio: 50 frames of 320 samples (give or take the interpolation edge).
      expect(posted.length).toBeGreaterThanOrEqual(49);
      expect(posted.length).toBeLessThanOrEqual(50);
      for (const frame of posted) expect(frame.pcm.byteLength).toBe(640);
      const last = posted.at(-1)!;
      const samples = pcmToFloat(last.pcm);
      // A 0.5 sine keeps its level (RMS 0.354) through filtering and resampling.
      expect(levelOf(samples)).toBeGreaterThan(0.3);
      expect(levelOf(samples)).toBeLessThan(0.4);
      expect(last.level).toBeCloseTo(levelOf(samples), 2);
    });
  }

  it('mixes channels to mono and reports silence as level 0', () => {
    const { processor, posted } = loadCapture(48_000);
    const block = new Float32Array(128);
    for (let i = 0; i < 60; i++) processor.process([[block, block]]);
    expect(posted.length).toBeGreaterThan(0);
    expect(posted.every((p) => p.level === 0)).toBe(true);
  });

  it('stops when told to', () => {
    const { processor } = loadCapture(48_000);
    processor.port.onmessage?.({ data: 'stop' });
    expect(processor.process([[new Float32Array(128)]])).toBe(false);
  });
});

describe('pcmToFloat', () => {
  it('reads little-endian 16-bit samples and ignores a dangling byte', () => {
    const bytes = new Uint8Array([0x00, 0x80, 0xff, 0x7f, 0x00]);
    expect([...pcmToFloat(bytes.buffer)]).toEqual([-1, 32_767 / 32_768]);
  });
});

describe('PlaybackSchedule', () => {
  it('holds the first frame for the jitter delay, then plays frames back to back', () => {
    const s = new PlaybackSchedule({ jitterSeconds: 0.08 });
    expect(s.place(10, 0.02, 0.2)).toBeCloseTo(10.08);
    expect(s.place(10.001, 0.02, 0.2)).toBeCloseTo(10.1);
    expect(s.ahead(10.001)).toBeCloseTo(0.119);
  });

  it('rebuffers after an underrun', () => {
    const s = new PlaybackSchedule({ jitterSeconds: 0.08 });
    s.place(0, 0.02, 0.1);
    expect(s.place(5, 0.02, 0.1)).toBeCloseTo(5.08);
  });

  it('drops frames beyond the maximum scheduled ahead', () => {
    const s = new PlaybackSchedule({ maxAheadSeconds: 0.5 });
    const starts = Array.from({ length: 40 }, () => s.place(0, 0.02, 0.1));
    expect(starts.filter((x) => x === null).length).toBeGreaterThan(0);
    expect(s.dropped).toBeGreaterThan(0);
    expect(s.ahead(0)).toBeLessThanOrEqual(0.52);
  });

  it('reports the level playing at a moment, and 0 in the gaps', () => {
    const s = new PlaybackSchedule({ jitterSeconds: 0.1 });
    s.place(0, 0.5, 0.3);
    expect(s.levelAt(0.05)).toBe(0);
    expect(s.levelAt(0.3)).toBe(0.3);
    expect(s.levelAt(0.7)).toBe(0);
  });
});
