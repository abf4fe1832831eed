import { createRequire } from 'node:module';
import { parseWav, resample, type Pcm } from './pcm.js';

/**
 * Offline speech for the echo assistant, synthesised with mespeak (eSpeak compiled to JavaScript).
 * Loading the engine takes ~100 ms and each sentence ~50–250 ms of CPU, so the engine loads once
 * per process on first use and the greeting is synthesised once, then resampled per room rate.
 * @module
 */

export type Synthesise = (text: string) => Pcm | null;

interface MeSpeak {
  loadConfig(config: unknown): void;
  loadVoice(voice: unknown): void;
  speak(text: string, options: { rawdata: 'buffer'; speed?: number }): Uint8Array | null;
}

let engine: MeSpeak | null = null;

function loadEngine(): MeSpeak {
  if (engine) return engine;
  const require = createRequire(import.meta.url);
  // mespeak warns "Not in browser" on the console when loaded in Node; that is expected here
  // (we only ask it for raw WAV data), so the warning is silenced for the duration of the load.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    const loaded = require('mespeak') as MeSpeak;
    loaded.loadConfig(require('mespeak/src/mespeak_config.json'));
    loaded.loadVoice(require('mespeak/voices/en/en-us.json'));
    engine = loaded;
  } finally {
    console.warn = warn;
  }
  return engine;
}

/** Synthesises English speech as 16-bit mono PCM at the engine's rate (22,050 Hz), or null. */
export const synthesise: Synthesise = (text) => {
  const wav = loadEngine().speak(text, { rawdata: 'buffer', speed: 165 });
  if (!wav || wav.byteLength <= 44) return null;
  return parseWav(new Uint8Array(wav.buffer, wav.byteOffset, wav.byteLength));
};

/**
 * A speaker bound to a synthesiser with two small caches: source audio per text (bounded LRU) and
 * the resampled greeting per rate.
 */
export function createSpeaker(synth: Synthesise = synthesise, maxEntries = 32) {
  // Keys: the text (source audio) and "<rate>\n<text>" (audio at a room's rate, shared by rooms).
  const cache = new Map<string, Pcm | Int16Array | null>();
  const cached = <T extends Pcm | Int16Array | null>(key: string, make: () => T): T => {
    if (cache.has(key)) {
      const hit = cache.get(key) as T;
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const made = make();
    cache.set(key, made);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return made;
  };
  return {
    /** The text spoken at `sampleRate`, or null when the synthesiser fails. Treat the result as read-only. */
    speak(text: string, sampleRate: number): Int16Array | null {
      return cached(`${sampleRate}\n${text}`, () => {
        const pcm = cached(text, () => synth(text));
        return pcm ? resample(pcm.samples, pcm.sampleRate, sampleRate) : null;
      });
    },
  };
}

export type Speaker = ReturnType<typeof createSpeaker>;
