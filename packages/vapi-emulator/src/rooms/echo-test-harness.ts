import type { AssistantEffect, EchoAssistantOptions } from './assistant-effects.js';
import { EchoAssistant } from './echo-assistant.js';
import { concat, encodePcm } from './pcm.js';
import { frames, tone } from './testing.js';

/** The echo assistant's tests: one on the test clock, and its effects picked apart. */

export const RATE = 16_000;
export const GREETING = tone(500, RATE, 0.2, 300);

export function assistant(options: Partial<EchoAssistantOptions> = {}) {
  return new EchoAssistant({
    format: { format: 'pcm_s16le', sampleRate: RATE },
    greeting: { text: 'Hello there', samples: GREETING },
    ...options,
  });
}

export const messages = (effects: AssistantEffect[]) =>
  effects.flatMap((e) => (e.type === 'json' ? [e.message] : []));
export const audio = (effects: AssistantEffect[]) =>
  concat(effects.flatMap((e) => (e.type === 'audio' ? [e.samples] : [])));

/** Streams audio in real time: one 20 ms frame per 20 ms of the clock, ticking as it goes. */
export function stream(
  a: EchoAssistant,
  samples: Int16Array,
  from: number,
): { effects: AssistantEffect[]; at: number } {
  const effects: AssistantEffect[] = [];
  let t = from;
  for (const f of frames(samples, 20, RATE)) {
    t += 20;
    effects.push(...a.receiveAudio(encodePcm(f), t));
  }
  return { effects, at: t };
}

/** Lets the clock run with no caller audio. */
export function advance(
  a: EchoAssistant,
  from: number,
  ms: number,
): { effects: AssistantEffect[]; at: number } {
  const effects: AssistantEffect[] = [];
  for (let t = from + 20; t <= from + ms; t += 20) effects.push(...a.tick(t));
  return { effects, at: from + ms };
}
