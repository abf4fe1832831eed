/**
 * Audio pieces of the WebSocket room that need no browser: the capture worklet's source (run in
 * the audio thread, loaded from a Blob URL so the SDK ships no extra file), PCM conversion, and the
 * playback schedule (jitter buffer and level timeline) over an injected clock.
 * @module
 */

/** The name the capture processor registers under. */
export const CAPTURE_PROCESSOR = 'engage-voice-capture';

/**
 * The capture processor, as JavaScript source for `audioWorklet.addModule(blobUrl)`.
 *
 * Per 128-sample block of the microphone (at the context's rate): mixes to mono, low-passes (two
 * one-pole stages below the target Nyquist, against aliasing), resamples to the call's rate by
 * linear interpolation carried across blocks, and posts each full frame as little-endian 16-bit
 * PCM (`{ pcm: ArrayBuffer, level }`, the buffer transferred) with the frame's RMS level.
 * `port.postMessage('stop')` ends the processor.
 */
export const CAPTURE_WORKLET_SOURCE = `
class EngageVoiceCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const o = options.processorOptions;
    this.ratio = sampleRate / o.targetRate;
    this.frameSamples = o.frameSamples;
    this.alpha = this.ratio > 1 ? 1 - Math.exp((-2 * Math.PI * 0.45 * o.targetRate) / sampleRate) : 1;
    this.lp1 = 0;
    this.lp2 = 0;
    this.pos = 0;
    this.prev = 0;
    this.newFrame();
    this.stopped = false;
    this.port.onmessage = (event) => { if (event.data === 'stop') this.stopped = true; };
  }
  newFrame() {
    this.buffer = new ArrayBuffer(this.frameSamples * 2);
    this.view = new DataView(this.buffer);
    this.filled = 0;
    this.squares = 0;
  }
  push(value) {
    const clamped = Math.max(-1, Math.min(1, value));
    this.view.setInt16(this.filled * 2, clamped < 0 ? clamped * 32768 : clamped * 32767, true);
    this.squares += clamped * clamped;
    this.filled++;
    if (this.filled === this.frameSamples) {
      const level = Math.sqrt(this.squares / this.frameSamples);
      this.port.postMessage({ pcm: this.buffer, level }, [this.buffer]);
      this.newFrame();
    }
  }
  process(inputs) {
    if (this.stopped) return false;
    const channels = inputs[0];
    if (!channels || channels.length === 0 || channels[0].length === 0) return true;
    const n = channels[0].length;
    const mono = new Float32Array(n);
    for (const channel of channels) for (let i = 0; i < n; i++) mono[i] += channel[i] / channels.length;
    for (let i = 0; i < n; i++) {
      this.lp1 += this.alpha * (mono[i] - this.lp1);
      this.lp2 += this.alpha * (this.lp1 - this.lp2);
      mono[i] = this.lp2;
    }
    let p = this.pos;
    while (p < n - 1) {
      const i = Math.floor(p);
      const f = p - i;
      const a = i < 0 ? this.prev : mono[i];
      this.push(a + (mono[i + 1] - a) * f);
      p += this.ratio;
    }
    this.pos = p - n;
    this.prev = mono[n - 1];
    return true;
  }
}
registerProcessor('${CAPTURE_PROCESSOR}', EngageVoiceCapture);
`;

/** 16-bit little-endian PCM bytes to floats in -1..1 (for an AudioBuffer). */
export function pcmToFloat(bytes: ArrayBuffer): Float32Array<ArrayBuffer> {
  const view = new DataView(bytes, 0, bytes.byteLength - (bytes.byteLength % 2));
  const out = new Float32Array(view.byteLength / 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32_768;
  return out;
}

/** RMS level of float samples, 0..1. */
export function levelOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / samples.length);
}

export interface PlaybackScheduleOptions {
  /** Audio held before playing after a gap, absorbing network jitter. Default 80 ms. */
  jitterSeconds?: number;
  /** Audio scheduled ahead beyond which new frames are dropped (bounding latency and memory). Default 2 s. */
  maxAheadSeconds?: number;
}

/**
 * The jitter buffer's schedule: where each received frame plays on the audio clock, and the level
 * heard at any moment (the remote audio level that drives speaking detection).
 */
export class PlaybackSchedule {
  readonly #jitter: number;
  readonly #maxAhead: number;
  #next = 0;
  #timeline: { start: number; end: number; level: number }[] = [];
  dropped = 0;

  constructor(options: PlaybackScheduleOptions = {}) {
    this.#jitter = options.jitterSeconds ?? 0.08;
    this.#maxAhead = options.maxAheadSeconds ?? 2;
  }

  /**
   * The start time for a frame of `duration` seconds arriving at `now`, or null to drop it.
   * Frames play back to back; after an underrun playback restarts `jitter` seconds ahead.
   */
  place(now: number, duration: number, level: number): number | null {
    if (this.#next < now + 0.005) this.#next = now + this.#jitter;
    if (this.#next - now > this.#maxAhead) {
      this.dropped++;
      return null;
    }
    const start = this.#next;
    this.#next += duration;
    this.#timeline.push({ start, end: this.#next, level });
    return start;
  }

  /** The level playing at `now` (0 in a gap); forgets what has been played. */
  levelAt(now: number): number {
    while (this.#timeline.length > 0 && this.#timeline[0]!.end <= now) this.#timeline.shift();
    const current = this.#timeline[0];
    return current && current.start <= now ? current.level : 0;
  }

  /** Seconds of audio scheduled but not yet played. */
  ahead(now: number): number {
    return Math.max(0, this.#next - now);
  }
}
