import { samplesFor, type AudioFormat } from './pcm.js';
import { firstWords, wordsHeard, type ArtifactMessage } from './transcript.js';
import type { VadOptions } from './vad.js';

/**
 * What the echo assistant (./echo-assistant.ts) is given and what it answers: its options, its
 * phases, and the effects the WebSocket layer carries out.
 * @module
 */

/** Why a call ended, with the provider's `endedReason` values. */
export type EndedReason =
  | 'customer-ended-call'
  | 'assistant-ended-call'
  | 'silence-timed-out'
  | 'exceeded-max-duration'
  /** The server stopped (not a provider value; the emulator's own). */
  | 'server-shutdown';

/** After the assistant stops, its voice may still be in the caller's jitter buffer and room. */
export const ECHO_TAIL_MS = 250;
/**
 * A caller who stops sending audio mid-utterance (a stalled network) gets the echo after this long.
 * Longer than the VAD's 700 ms so a briefly stalled event loop never splits an utterance.
 */
export const STALL_FLUSH_MS = 1500;

export type AssistantEffect =
  | { type: 'json'; message: Record<string, unknown> }
  | { type: 'audio'; samples: Int16Array }
  /** Synthesise this text and hand the audio to `say()` (synthesis is slow, so it happens outside). */
  | { type: 'speak'; text: string; endCallAfterSpoken: boolean }
  /** Answer this typed question (from the assistant's documents), then `say()` the answer as 'answer'. */
  | { type: 'answer'; question: string }
  /** A message joined the conversation: for the provider's record of the call (its artifact). */
  | { type: 'record'; message: ArtifactMessage }
  | { type: 'close'; code: number; reason: string };

export type RoomPhase = 'waiting' | 'active' | 'ended';

export interface EchoAssistantOptions {
  format: AudioFormat;
  /** The greeting, already at the room's sample rate; null for none. */
  greeting: { text: string; samples: Int16Array } | null;
  /** Ends the call when nothing happens for this long. Default 30 s. */
  idleTimeoutMs?: number;
  /** Ends the call after this long whatever happens. Default 10 minutes. */
  maxDurationMs?: number;
  /** Caps audio queued for playback. Default 30 s. */
  maxQueuedMs?: number;
  /** How far ahead of real time audio is sent, so the caller's jitter buffer never runs dry. Default 100 ms. */
  leadMs?: number;
  /** Length of each audio frame sent. Default 20 ms. */
  frameMs?: number;
  vad?: Omit<VadOptions, 'sampleRate'>;
  /** Added to a room-clock time to get the wall-clock time of conversation messages. Default 0. */
  epochOffsetMs?: number;
}

/** What the assistant speaks: echoes are the caller's own audio, so they have no text. */
export type SpokenKind = 'greeting' | 'echo' | 'say' | 'answer';

/** A stretch of the assistant's speech, queued for playback. */
export interface Segment {
  kind: SpokenKind;
  samples: Int16Array;
  text: string;
  endCallAfter: boolean;
}

/** The segment being played, how much of it was sent, and how many of its words were captioned. */
export interface Playing {
  segment: Segment;
  sent: number;
  startedAt: number;
  captioned: number;
}

/** A JSON message to send the caller. */
export function json(message: Record<string, unknown>): AssistantEffect {
  return { type: 'json', message };
}

export function record(message: ArtifactMessage): AssistantEffect {
  return { type: 'record', message };
}

/** The caller was told a `say` could not be spoken. */
export const SAY_FAILED = json({
  type: 'error',
  error: 'say_failed',
  message: 'The assistant could not speak that text.',
});

/** The words of a reply being played that the caller has heard by `now`; '' for none or an echo. */
export function saidSoFar(playing: Playing, sampleRate: number, now: number): string {
  const { kind, text, samples } = playing.segment;
  if (kind === 'echo') return '';
  const duration = (samples.length * 1000) / sampleRate;
  const fraction = duration > 0 ? Math.min(1, Math.max(0, (now - playing.startedAt) / duration)) : 1;
  return firstWords(text, Math.max(playing.captioned, wordsHeard(text, fraction)));
}

/** The assistant's settings, its options' defaults filled in, frames and the queue cap in samples. */
export function assistantSettings(options: EchoAssistantOptions) {
  const rate = options.format.sampleRate;
  return {
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
    maxDurationMs: options.maxDurationMs ?? 600_000,
    leadMs: options.leadMs ?? 100,
    frameSamples: samplesFor(options.frameMs ?? 20, rate),
    maxQueuedSamples: samplesFor(options.maxQueuedMs ?? 30_000, rate),
  };
}
