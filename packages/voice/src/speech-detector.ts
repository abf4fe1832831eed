/**
 * Speaking detection from the remote audio levels: speaking starts when the summed
 * level exceeds 0.01 and ends 1000 ms after the last level above it; the reported volume is
 * min(1, sum / 0.15). Pure apart from the timer functions it is given.
 * @module
 */

export const SPEAKING_THRESHOLD = 0.01;
export const SPEECH_END_AFTER_MS = 1000;
export const VOLUME_DIVISOR = 0.15;

export interface SpeechDetectorEvents {
  volume(level: number): void;
  speechStart(): void;
  speechEnd(): void;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The volume reported for a summed level. */
export function volumeOf(levelSum: number): number {
  return Math.min(1, Math.max(0, levelSum) / VOLUME_DIVISOR);
}

export class SpeechDetector {
  #events: SpeechDetectorEvents;
  #timers: Timers;
  #endTimer: unknown = null;
  #disposed = false;

  constructor(events: SpeechDetectorEvents, timers: Timers = defaultTimers) {
    this.#events = events;
    this.#timers = timers;
  }

  get speaking(): boolean {
    return this.#endTimer !== null;
  }

  /** Feeds one observer sample: levels 0..1 by participant. */
  update(levels: Record<string, number>): void {
    if (this.#disposed) return;
    let sum = 0;
    for (const level of Object.values(levels)) if (Number.isFinite(level)) sum += level;
    this.#events.volume(volumeOf(sum));
    if (sum <= SPEAKING_THRESHOLD) return;
    if (this.#endTimer !== null) this.#timers.clearTimeout(this.#endTimer);
    else this.#events.speechStart();
    this.#endTimer = this.#timers.setTimeout(() => {
      this.#endTimer = null;
      if (!this.#disposed) this.#events.speechEnd();
    }, SPEECH_END_AFTER_MS);
  }

  /** Stops for good: clears the pending end timer, so no event fires after the call ends. */
  dispose(): void {
    this.#disposed = true;
    if (this.#endTimer !== null) this.#timers.clearTimeout(this.#endTimer);
    this.#endTimer = null;
  }
}
