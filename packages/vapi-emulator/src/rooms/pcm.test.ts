import { describe, expect, it } from 'vitest';
import {
  createDecoder,
  createPcmDecoder,
  encode,
  encodePcm,
  linearToMulaw,
  mulawToLinear,
  resample,
  rms,
} from './pcm.js';
import { tone } from './testing.js';

describe('16-bit little-endian PCM', () => {
  it('round-trips samples, including the extremes', () => {
    const samples = Int16Array.from([0, 1, -1, 32_767, -32_768, 12_345]);
    expect(createPcmDecoder()(encodePcm(samples))).toEqual(samples);
  });

  it('joins a sample split across two frames', () => {
    const bytes = encodePcm(Int16Array.from([1000, -2000, 3000]));
    const decode = createPcmDecoder();
    const first = decode(bytes.subarray(0, 3));
    const second = decode(bytes.subarray(3));
    expect([...first, ...second]).toEqual([1000, -2000, 3000]);
  });
});

describe('G.711 µ-law', () => {
  it('keeps speech within the quantisation error of the codec', () => {
    for (const s of [0, 100, -100, 1000, -5000, 20_000, -32_000]) {
      const back = mulawToLinear(linearToMulaw(s));
      expect(Math.abs(back - s)).toBeLessThanOrEqual(Math.max(8, Math.abs(s) * 0.04));
    }
  });

  it('encodes one byte per sample and decodes through the room decoder', () => {
    const samples = tone(20, 8000);
    const bytes = encode('mulaw', samples);
    expect(bytes.length).toBe(samples.length);
    const decoded = createDecoder('mulaw')(bytes);
    expect(rms(decoded)).toBeCloseTo(rms(samples), 2);
  });
});

describe('resample', () => {
  it('changes the length by the ratio of the rates and keeps the level', () => {
    const source = tone(1000, 22_050);
    const out = resample(source, 22_050, 16_000);
    expect(out.length).toBe(16_000);
    expect(rms(out)).toBeCloseTo(rms(source), 2);
  });

  it('returns a copy when the rates match', () => {
    const source = tone(10, 16_000);
    const out = resample(source, 16_000, 16_000);
    expect(out).toEqual(source);
    expect(out).not.toBe(source);
  });
});

describe('rms', () => {
  it('is 0 for silence and about 0.707 × amplitude for a sine', () => {
    expect(rms(new Int16Array(160))).toBe(0);
    expect(rms(tone(100, 16_000, 0.5))).toBeCloseTo(0.354, 2);
  });
});
