/**
 * What a call room tells the caller about what is said, in the provider's client messages: the
 * assistant's speech as `transcript` partials (the words heard so far, paced by the audio) and a
 * final, and the conversation as `conversation-update`. Pure: times come in as arguments.
 * @module
 */

/** Words added between two partial transcripts. */
export const WORDS_PER_PARTIAL = 3;

/** Messages a room's conversation keeps (the oldest are dropped). */
const MAX_ENTRIES = 100;

/** The words of `text` heard once `fraction` (0–1) of its audio has played, by their share of the characters. */
export function wordsHeard(text: string, fraction: number): number {
  const words = text.split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + w.length, 0);
  let heard = 0;
  let chars = 0;
  for (const w of words) {
    chars += w.length;
    if (chars > fraction * total + 1e-9) break;
    heard++;
  }
  return heard;
}

/** The first `count` words of `text`, spaced as one line. */
export const firstWords = (text: string, count: number): string =>
  text.split(/\s+/).filter(Boolean).slice(0, count).join(' ');

export function transcriptMessage(
  role: 'assistant' | 'user',
  transcriptType: 'partial' | 'final',
  transcript: string,
): Record<string, unknown> {
  return { type: 'transcript', role, transcriptType, transcript };
}

/** One message of the call's artifact, as the provider's `artifact.messages` hold it (wall-clock ms). */
export interface ArtifactMessage {
  role: 'bot' | 'user';
  message: string;
  time: number;
  endTime: number;
  secondsFromStart: number;
}

/**
 * The partial transcript due once `fraction` of `text`'s audio has played, when at least a few more
 * words than the `captioned` ones are heard; null otherwise (the final transcript says them all).
 */
export function nextPartial(
  text: string,
  captioned: number,
  fraction: number,
): { words: number; message: Record<string, unknown> } | null {
  const heard = wordsHeard(text, Math.min(1, Math.max(0, fraction)));
  if (heard >= wordsHeard(text, 1) || heard - captioned < WORDS_PER_PARTIAL) return null;
  return { words: heard, message: transcriptMessage('assistant', 'partial', firstWords(text, heard)) };
}

interface Entry {
  role: 'bot' | 'user';
  message: string;
  /** Room-clock times, in ms. */
  at: number;
  endAt: number;
}

/** The call's conversation, as `conversation-update` sends it. */
export class Conversation {
  readonly #entries: Entry[] = [];
  readonly #startedAt: number;
  readonly #epochOffsetMs: number;

  /** `epochOffsetMs` turns a room-clock time into a wall-clock one (ms since 1970). */
  constructor(startedAt: number, epochOffsetMs: number) {
    this.#startedAt = startedAt;
    this.#epochOffsetMs = epochOffsetMs;
  }

  /** Adds a message; answers it in the artifact's form, for the provider's record of the call. */
  add(role: 'bot' | 'user', message: string, at: number, endAt = at): ArtifactMessage {
    const entry = { role, message, at, endAt };
    this.#entries.push(entry);
    if (this.#entries.length > MAX_ENTRIES) this.#entries.shift();
    return this.#artifact(entry);
  }

  #artifact(e: Entry): ArtifactMessage {
    return {
      role: e.role,
      message: e.message,
      time: Math.round(e.at + this.#epochOffsetMs),
      endTime: Math.round(e.endAt + this.#epochOffsetMs),
      secondsFromStart: Math.max(0, (e.at - this.#startedAt) / 1000),
    };
  }

  /** The `conversation-update` message: artifact messages and their OpenAI form. */
  update(): Record<string, unknown> {
    return {
      type: 'conversation-update',
      messages: this.#entries.map((e) => this.#artifact(e)),
      messagesOpenAIFormatted: this.#entries.map((e) => ({
        role: e.role === 'bot' ? 'assistant' : 'user',
        content: e.message,
      })),
    };
  }
}
