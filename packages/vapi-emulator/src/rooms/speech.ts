import { resample, type Pcm } from './pcm.js';

/**
 * The echo assistant's voice: no speech synthesiser ships permissively licensed inside a registry
 * package, so the emulator speaks each word as a short tone, with the words themselves sent as
 * captions and transcript. The tones follow speech's rhythm (a longer tone for a longer word, pauses
 * after punctuation), so a call sounds and times like one: the caller hears that the assistant is
 * speaking and for how long, and reads what it says. Pure and fast, so it runs on the event loop.
 * @module
 */

/** Synthesises text as 16-bit mono PCM, or resolves null when it cannot. */
export type Synthesise = (text: string) => Promise<Pcm | null>;

/** The rate the tones are made at; rooms resample to their own. */
export const SPEECH_SAMPLE_RATE = 16_000;

const WORD_GAP_MS = 70;
const SENTENCE_GAP_MS = 260;
const AMPLITUDE = 0.22;

/** One word's tone: a low fundamental with two overtones, its pitch from the word, eased in and out. */
function wordTone(word: string, out: Float32Array, at: number, length: number): void {
  let hash = 0;
  for (const ch of word) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hz = 170 + (hash % 90);
  for (let i = 0; i < length; i++) {
    const t = i / SPEECH_SAMPLE_RATE;
    const envelope = Math.sin((Math.PI * i) / length) ** 2;
    const wave =
      Math.sin(2 * Math.PI * hz * t) +
      0.4 * Math.sin(4 * Math.PI * hz * t) +
      0.15 * Math.sin(6 * Math.PI * hz * t);
    out[at + i] = (AMPLITUDE * envelope * wave) / 1.55;
  }
}

/** The tones for `text` at SPEECH_SAMPLE_RATE; empty text (no word) gives no audio. */
export function speechTones(text: string): Int16Array {
  const words = text.match(/[\p{L}\p{N}'’-]+[.!?,;:]*/gu) ?? [];
  const ms = (n: number) => Math.round((n * SPEECH_SAMPLE_RATE) / 1000);
  const plan = words.map((w) => {
    const letters = w.replace(/[^\p{L}\p{N}]/gu, '').length;
    const pause = /[.!?]$/.test(w) ? SENTENCE_GAP_MS : /[,;:]$/.test(w) ? SENTENCE_GAP_MS / 2 : WORD_GAP_MS;
    return { word: w, length: ms(Math.min(90 + 28 * letters, 420)), gap: ms(pause) };
  });
  const total = plan.reduce((sum, p) => sum + p.length + p.gap, 0);
  const mix = new Float32Array(total);
  let at = 0;
  for (const p of plan) {
    wordTone(p.word, mix, at, p.length);
    at += p.length + p.gap;
  }
  const samples = new Int16Array(total);
  for (let i = 0; i < total; i++) samples[i] = Math.round(Math.max(-1, Math.min(1, mix[i]!)) * 32_767);
  return samples;
}

/** The emulator's speech: the tones of `text`, or null when it has no word to speak. */
export const synthesise: Synthesise = async (text) => {
  const samples = speechTones(text);
  return samples.length > 0 ? { samples, sampleRate: SPEECH_SAMPLE_RATE } : null;
};

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
