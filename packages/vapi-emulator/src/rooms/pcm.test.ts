import { describe, expect, it } from 'vitest';
import {
  createDecoder,
  createPcmDecoder,
  encode,
  encodePcm,
  linearToMulaw,
  mulawToLinear,
  parseWav,
  resample,
  rms,
  WavError,
} from './pcm.js';
import { tone } from './testing.js';

function wav(samples: Int16Array, rate: number, channels = 1, extraChunk = false): Uint8Array {
  const extra = extraChunk ? 12 : 0;
  const data = samples.length * 2;
  const out = new Uint8Array(44 + extra + data);
  const v = new DataView(out.buffer);
  const put = (at: number, s: string) => [...s].forEach((ch, i) => (out[at + i] = ch.charCodeAt(0)));
  put(0, 'RIFF');
  v.setUint32(4, 36 + extra + data, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2 * channels, true);
  v.setUint16(32, 2 * channels, true);
  v.setUint16(34, 16, true);
  let at = 36;
  if (extraChunk) {
    put(at, 'LIST');
    v.setUint32(at + 4, 4, true);
    put(at + 8, 'INFO');
    at += 12;
  }
  put(at, 'data');
  v.setUint32(at + 4, data, true);
  samples.forEach((s, i) => v.setInt16(at + 8 + i * 2, s, true));
  return out;
}

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

describe('parseWav', () => {
  it('reads mono 16-bit PCM past extra chunks', () => {
    const samples = tone(50, 22_050);
    const pcm = parseWav(wav(samples, 22_050, 1, true));
    expect(pcm.sampleRate).toBe(22_050);
    expect(pcm.samples).toEqual(samples);
  });

  it('mixes stereo down to mono', () => {
    const interleaved = Int16Array.from([100, 300, -100, -300]);
    expect([...parseWav(wav(interleaved, 8000, 2)).samples]).toEqual([200, -200]);
  });

  it('refuses what is not a WAV file', () => {
    expect(() => parseWav(new TextEncoder().encode('hello world, not audio'))).toThrow(WavError);
  });
});
