import { concat, rms, samplesFor } from './pcm.js';

/**
 * Energy-based voice activity detection over 16-bit samples. Time is counted in samples received,
 * not wall-clock time, so the detector is deterministic and a test can feed it audio faster than
 * real time.
 * @module
 */

export interface VadOptions {
  sampleRate: number;
  /** RMS level (0..1) at or above which a frame counts as voice. Default 0.01, the SDK's speaking threshold. */
  threshold?: number;
  /** Silence that ends an utterance. Default 700 ms. */
  silenceMs?: number;
  /** Voice needed before an utterance starts, so clicks are ignored. Default 100 ms. */
  minSpeechMs?: number;
  /** An utterance is cut at this length, bounding the buffer. Default 30 s. */
  maxUtteranceMs?: number;
  /** Analysis frame. Default 20 ms. */
  frameMs?: number;
}

export type VadEvent =
  | { type: 'speech-start' }
  | {
      type: 'speech-end';
      /** The utterance from its first voiced frame to its last, without the trailing silence. */
      utterance: Int16Array;
      reason: 'silence' | 'max-length' | 'flush';
    };

/** The detector's state, exposed for tests and status reporting. */
export type VadState = 'quiet' | 'onset' | 'speech';

export class EnergyVad {
  readonly sampleRate: number;
  readonly threshold: number;
  readonly #frameSamples: number;
  readonly #silenceSamples: number;
  readonly #minSpeechSamples: number;
  readonly #maxUtteranceSamples: number;

  #state: VadState = 'quiet';
  /** Samples not yet making up a whole analysis frame. */
  #pending: Int16Array[] = [];
  #pendingLength = 0;
  /** Frames of the current onset or utterance. */
  #frames: Int16Array[] = [];
  #framesLength = 0;
  /** Length of #frames up to and including its last voiced frame. */
  #voicedLength = 0;
  #silence = 0;

  constructor(options: VadOptions) {
    const { sampleRate } = options;
    if (!Number.isInteger(sampleRate) || sampleRate < 4_000 || sampleRate > 96_000)
      throw new RangeError(`sampleRate must be a whole number of Hz from 4000 to 96000, got ${sampleRate}`);
    this.sampleRate = sampleRate;
    this.threshold = options.threshold ?? 0.01;
    this.#frameSamples = Math.max(1, samplesFor(options.frameMs ?? 20, sampleRate));
    this.#silenceSamples = samplesFor(options.silenceMs ?? 700, sampleRate);
    this.#minSpeechSamples = samplesFor(options.minSpeechMs ?? 100, sampleRate);
    this.#maxUtteranceSamples = samplesFor(options.maxUtteranceMs ?? 30_000, sampleRate);
  }

  get state(): VadState {
    return this.#state;
  }

  /** Samples held for the current utterance (bounded by maxUtteranceMs plus one frame). */
  get bufferedSamples(): number {
    return this.#framesLength + this.#pendingLength;
  }

  /** Feeds received samples; returns what happened, in order. */
  push(samples: Int16Array): VadEvent[] {
    const events: VadEvent[] = [];
    let offset = 0;
    while (offset < samples.length) {
      const need = this.#frameSamples - this.#pendingLength;
      const take = samples.subarray(offset, offset + need);
      // Copy: callers may reuse their buffer once push returns.
      this.#pending.push(take.slice());
      this.#pendingLength += take.length;
      offset += take.length;
      if (this.#pendingLength === this.#frameSamples) {
        const frame = this.#pending.length === 1 ? this.#pending[0]! : concat(this.#pending);
        this.#pending = [];
        this.#pendingLength = 0;
        this.#frame(frame, events);
      }
    }
    return events;
  }

  /** Ends the current utterance now (the caller stopped sending audio), if one is under way. */
  flush(): VadEvent[] {
    if (this.#state !== 'speech') {
      this.#reset();
      return [];
    }
    return [this.#end('flush')];
  }

  #frame(frame: Int16Array, events: VadEvent[]): void {
    const voiced = rms(frame) >= this.threshold;
    switch (this.#state) {
      case 'quiet':
        if (voiced) {
          this.#state = 'onset';
          this.#append(frame, true);
          this.#maybeStart(events);
        }
        return;
      case 'onset':
        if (!voiced) {
          this.#reset();
          return;
        }
        this.#append(frame, true);
        this.#maybeStart(events);
        return;
      case 'speech':
        this.#append(frame, voiced);
        this.#silence = voiced ? 0 : this.#silence + frame.length;
        if (this.#silence >= this.#silenceSamples) events.push(this.#end('silence'));
        else if (this.#framesLength >= this.#maxUtteranceSamples) events.push(this.#end('max-length'));
    }
  }

  #maybeStart(events: VadEvent[]): void {
    if (this.#framesLength < this.#minSpeechSamples) return;
    this.#state = 'speech';
    this.#silence = 0;
    events.push({ type: 'speech-start' });
  }

  #append(frame: Int16Array, voiced: boolean): void {
    this.#frames.push(frame);
    this.#framesLength += frame.length;
    if (voiced) this.#voicedLength = this.#framesLength;
  }

  #end(reason: 'silence' | 'max-length' | 'flush'): VadEvent {
    const utterance = concat(this.#frames).subarray(0, this.#voicedLength);
    this.#reset();
    return { type: 'speech-end', utterance, reason };
  }

  #reset(): void {
    this.#state = 'quiet';
    this.#frames = [];
    this.#framesLength = 0;
    this.#voicedLength = 0;
    this.#silence = 0;
  }
}
