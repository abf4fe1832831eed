import { Worker } from 'node:worker_threads';
import { parseWav, resample, type Pcm } from './pcm.js';

/**
 * Offline speech for the echo assistant, synthesised with mespeak in a worker thread
 * (./speech-worker.js): a sentence costs 0.5–1 s of CPU, which must not stall the rooms' audio.
 * The worker starts on first use and does not keep the process alive; results are cached per text
 * and per room rate, so the greeting of an assistant is synthesised once per process.
 * @module
 */

/** Synthesises English speech as 16-bit mono PCM, or resolves null when it cannot. */
export type Synthesise = (text: string) => Promise<Pcm | null>;

const SYNTHESIS_TIMEOUT_MS = 15_000;

interface Pending {
  resolve: (pcm: Pcm | null) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The mespeak worker, shared by every room of the process. */
function createWorkerSynthesiser(): Synthesise {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const settle = (id: number, pcm: Pcm | null) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    clearTimeout(entry.timer);
    if (pending.size === 0) worker?.unref();
    entry.resolve(pcm);
  };

  const start = (): Worker => {
    const w = new Worker(new URL('./speech-worker.js', import.meta.url));
    w.unref();
    w.on('message', ({ id, wav }: { id: number; wav?: Uint8Array; error?: string }) => {
      let pcm: Pcm | null = null;
      try {
        pcm = wav ? parseWav(wav) : null;
      } catch {
        pcm = null;
      }
      settle(id, pcm);
    });
    // A crashed worker fails what it held; the next request starts a new one.
    const fail = () => {
      if (worker === w) worker = null;
      for (const id of [...pending.keys()]) settle(id, null);
    };
    w.on('error', fail);
    w.on('exit', fail);
    return w;
  };

  return (text) =>
    new Promise((resolve) => {
      worker ??= start();
      // Held while work is pending, so a synthesis in flight is not abandoned.
      worker.ref();
      const id = nextId++;
      const timer = setTimeout(() => settle(id, null), SYNTHESIS_TIMEOUT_MS);
      timer.unref?.();
      pending.set(id, { resolve, timer });
      worker.postMessage({ id, text });
    });
}

let shared: Synthesise | null = null;

/** The process-wide mespeak synthesiser. */
export const synthesise: Synthesise = (text) => (shared ??= createWorkerSynthesiser())(text);

/**
 * A speaker over a synthesiser with a small LRU cache keyed by text and by "<rate>\n<text>" (the
 * audio at a room's rate, shared by rooms). Concurrent requests for the same text share one synthesis.
 */
export function createSpeaker(synth: Synthesise = synthesise, maxEntries = 32) {
  const cache = new Map<string, Promise<Pcm | Int16Array | null>>();
  const cached = <T extends Pcm | Int16Array | null>(key: string, make: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key) as Promise<T> | undefined;
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const made = make();
    cache.set(key, made);
    // A failure is not remembered: the next request tries again.
    void made.then((value) => {
      if (value === null && cache.get(key) === made) cache.delete(key);
    });
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return made;
  };
  return {
    /** The text spoken at `sampleRate`, or null when synthesis fails. Treat the result as read-only. */
    speak(text: string, sampleRate: number): Promise<Int16Array | null> {
      return cached(`${sampleRate}\n${text}`, async () => {
        const pcm = await cached(text, () => synth(text).catch(() => null));
        return pcm ? resample(pcm.samples, pcm.sampleRate, sampleRate) : null;
      });
    },
  };
}

export type Speaker = ReturnType<typeof createSpeaker>;
