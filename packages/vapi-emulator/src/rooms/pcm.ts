/**
 * Pure audio helpers for the call rooms: 16-bit little-endian PCM framing, G.711 µ-law, resampling,
 * and levels. No I/O; every function is deterministic.
 * @module
 */

/** The audio encodings of the provider's `vapi.websocket` transport. */
export type AudioEncoding = 'pcm_s16le' | 'mulaw';

export interface AudioFormat {
  format: AudioEncoding;
  sampleRate: number;
}

/** The default of the `vapi.websocket` transport: 16 kHz 16-bit little-endian PCM. */
export const DEFAULT_AUDIO_FORMAT: AudioFormat = { format: 'pcm_s16le', sampleRate: 16_000 };

/** Sample rates a room accepts (the telephony and wide-band rates the provider documents). */
export const SUPPORTED_SAMPLE_RATES = [8_000, 16_000, 22_050, 24_000, 44_100, 48_000] as const;

/**
 * Decodes binary frames of 16-bit little-endian PCM. A frame may split a sample across two frames
 * (a client may send odd byte counts), so the decoder keeps the dangling byte for the next frame.
 */
export function createPcmDecoder(): (bytes: Uint8Array) => Int16Array {
  let carry: number | null = null;
  return (bytes) => {
    const total = bytes.length + (carry === null ? 0 : 1);
    const out = new Int16Array(total >> 1);
    let i = 0;
    let o = 0;
    if (carry !== null && bytes.length > 0) {
      out[o++] = (((bytes[0]! << 8) | carry) << 16) >> 16;
      i = 1;
      carry = null;
    }
    for (; i + 1 < bytes.length; i += 2) out[o++] = (((bytes[i + 1]! << 8) | bytes[i]!) << 16) >> 16;
    if (i < bytes.length) carry = bytes[i]!;
    return out;
  };
}

/** Little-endian bytes of 16-bit samples (a copy, safe to send while the source is reused). */
export function encodePcm(samples: Int16Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return out;
}

const MULAW_BIAS = 0x84;
const MULAW_CLIP = 32_635;

/** G.711 µ-law encoding of one 16-bit sample. */
export function linearToMulaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), MULAW_CLIP) + MULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = ~(sign | (exponent << 4) | mantissa) & 0xff;
  return magnitude;
}

/** G.711 µ-law decoding of one byte to a 16-bit sample. */
export function mulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = (((u & 0x0f) << 3) + MULAW_BIAS) << exponent;
  return u & 0x80 ? MULAW_BIAS - magnitude : magnitude - MULAW_BIAS;
}

/** A decoder for the room's encoding: wire bytes in, 16-bit samples out. */
export function createDecoder(format: AudioEncoding): (bytes: Uint8Array) => Int16Array {
  if (format === 'pcm_s16le') return createPcmDecoder();
  return (bytes) => Int16Array.from(bytes, mulawToLinear);
}

/** An encoder for the room's encoding: 16-bit samples in, wire bytes out. */
export function encode(format: AudioEncoding, samples: Int16Array): Uint8Array<ArrayBuffer> {
  if (format === 'pcm_s16le') return encodePcm(samples);
  return Uint8Array.from(samples, linearToMulaw);
}

/** Bytes per sample on the wire. */
export const bytesPerSample = (format: AudioEncoding): number => (format === 'pcm_s16le' ? 2 : 1);

/**
 * Linear-interpolation resampling. Good enough for speech at the rates rooms use; anti-aliasing is
 * left out on purpose (the echo assistant's voice is band-limited below 4 kHz already).
 */
export function resample(input: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate || input.length === 0) return input.slice();
  const outLength = Math.max(1, Math.round((input.length * toRate) / fromRate));
  const out = new Int16Array(outLength);
  const step = fromRate / toRate;
  const last = input.length - 1;
  for (let i = 0; i < outLength; i++) {
    const pos = i * step;
    const left = Math.min(Math.floor(pos), last);
    const right = Math.min(left + 1, last);
    const frac = pos - left;
    out[i] = Math.round(input[left]! * (1 - frac) + input[right]! * frac);
  }
  return out;
}

/** Root-mean-square level of 16-bit samples, from 0 (silence) to 1 (full scale). */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]! / 32_768;
    sum += s * s;
  }
  return Math.sqrt(sum / samples.length);
}

/** Concatenates sample chunks into one array. */
export function concat(chunks: readonly Int16Array[]): Int16Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Int16Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** Samples in `ms` milliseconds at `sampleRate`. */
export const samplesFor = (ms: number, sampleRate: number): number => Math.round((ms * sampleRate) / 1000);

export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}
