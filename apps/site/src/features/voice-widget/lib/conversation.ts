/**
 * The conversation of a call, built from the assistant's messages (the SDK's `message` event, the
 * provider's ClientMessage shapes) and what the visitor types. Pure, so every rule is unit-tested.
 *
 * - `transcript` (partial or final, either role): a partial is the words of the segment being
 *   spoken so far and is replaced by the next partial, then by its final; finals of one speaker
 *   follow each other in the same turn until someone else speaks or the speaker stops.
 * - `speech-update`: `started` begins a new turn of that role; `stopped` closes the current one
 *   (a final still on its way lands in it).
 * - A typed question is a turn of its own; the room's echo of it as a user transcript is not shown
 *   twice.
 * - `model-output` and `conversation-update` carry the model's text before (or whether or not) it
 *   is spoken; captions follow the speech, so they are left out rather than shown twice.
 * - Bounded: at most {@link MAX_TURNS} turns (the oldest go) of at most {@link MAX_TURN_CHARS}
 *   characters each (the latest words stay).
 */

export type Speaker = 'assistant' | 'user';

export interface Turn {
  readonly id: number;
  readonly role: Speaker;
  /** Words settled by final transcripts, or the typed text. */
  readonly settled: string;
  /** The segment still being spoken (the latest partial), replaced by its final. */
  readonly pending: string;
  /** Whether the speaker's next words continue this turn. */
  readonly open: boolean;
  /** Typed by the visitor (sent with add-message), not heard. */
  readonly typed: boolean;
}

export interface Conversation {
  readonly turns: readonly Turn[];
  readonly nextId: number;
  /** The latest settled words heard, for a polite announcement; `seq` changes with each. */
  readonly latestFinal: { readonly seq: number; readonly role: Speaker; readonly text: string } | null;
}

export type ConversationAction =
  { type: 'message'; message: unknown } | { type: 'typed'; text: string } | { type: 'reset' };

export const MAX_TURNS = 100;
export const MAX_TURN_CHARS = 2_000;

export const emptyConversation: Conversation = { turns: [], nextId: 1, latestFinal: null };

/** What a turn shows: its settled words, then the segment still being spoken. */
export function turnText(turn: Turn): string {
  return join(turn.settled, turn.pending);
}

export function conversationReducer(state: Conversation, action: ConversationAction): Conversation {
  switch (action.type) {
    case 'reset':
      return emptyConversation;
    case 'typed': {
      const text = clip(action.text.trim());
      if (!text) return state;
      const closed = state.turns.map((turn) => (turn.open ? { ...turn, open: false } : turn));
      return append({ ...state, turns: closed }, { role: 'user', settled: text, typed: true, open: false });
    }
    case 'message': {
      const transcript = readTranscript(action.message);
      if (transcript) return onTranscript(state, transcript);
      const speech = readSpeechUpdate(action.message);
      if (speech) return onSpeechUpdate(state, speech);
      return state;
    }
  }
}

interface TranscriptMessage {
  role: Speaker;
  final: boolean;
  text: string;
}

function onTranscript(state: Conversation, { role, final, text }: TranscriptMessage): Conversation {
  const turns = state.turns;
  const index = findLastIndex(turns, (turn) => turn.role === role);
  const last = index >= 0 ? turns[index] : undefined;
  if (role === 'user' && last?.typed && isEchoOf(last.settled, text, final)) return state;
  const latestFinal = final ? { seq: (state.latestFinal?.seq ?? 0) + 1, role, text } : state.latestFinal;
  // The same turn goes on while its segment is being spoken (even if the other speaker cut in),
  // or while it is the latest turn and its speaker has not stopped.
  if (last && (last.pending !== '' || (last.open && index === turns.length - 1))) {
    const updated: Turn = final
      ? { ...last, settled: clip(join(last.settled, text)), pending: '' }
      : { ...last, pending: text };
    return { ...state, turns: replaceAt(turns, index, updated), latestFinal };
  }
  const next = append(state, {
    role,
    settled: final ? text : '',
    pending: final ? '' : text,
    typed: false,
    open: true,
  });
  return { ...next, latestFinal };
}

function onSpeechUpdate(state: Conversation, { role, started }: { role: Speaker; started: boolean }) {
  let changed = false;
  const turns = state.turns.map((turn) => {
    if (turn.role !== role) return turn;
    // Started: new words begin a new turn; words cut off mid-segment stay as they were heard.
    if (started && (turn.open || turn.pending)) {
      changed = true;
      return { ...turn, settled: clip(join(turn.settled, turn.pending)), pending: '', open: false };
    }
    // Stopped: no more words in this turn, but its pending segment may still get its final.
    if (!started && turn.open) {
      changed = true;
      return { ...turn, open: false };
    }
    return turn;
  });
  return changed ? { ...state, turns } : state;
}

function append(
  state: Conversation,
  turn: Omit<Turn, 'id' | 'pending'> & { pending?: string },
): Conversation {
  const turns = [...state.turns, { pending: '', ...turn, id: state.nextId }];
  return {
    ...state,
    turns: turns.length > MAX_TURNS ? turns.slice(turns.length - MAX_TURNS) : turns,
    nextId: state.nextId + 1,
  };
}

/** A user transcript that only repeats the question just typed (the room's echo of add-message). */
function isEchoOf(typed: string, heard: string, final: boolean): boolean {
  const a = normalize(typed);
  const b = normalize(heard);
  return final ? a === b : a.startsWith(b);
}

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const join = (a: string, b: string) => (a && b ? `${a} ${b}` : a || b);

/** Keeps the latest words of an over-long text. */
const clip = (text: string) =>
  text.length > MAX_TURN_CHARS ? `…${text.slice(-(MAX_TURN_CHARS - 1))}` : text;

function replaceAt<T>(items: readonly T[], index: number, item: T): T[] {
  const copy = [...items];
  copy[index] = item;
  return copy;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
const speaker = (value: unknown): Speaker | null =>
  value === 'assistant' || value === 'user' ? value : null;

/**
 * A `transcript` message (also typed `transcript[transcriptType="final"]`) with a role and words;
 * null for anything else. A transcript without `transcriptType` counts as final.
 */
export function readTranscript(message: unknown): TranscriptMessage | null {
  if (!isRecord(message) || typeof message.type !== 'string') return null;
  if (message.type !== 'transcript' && !message.type.startsWith('transcript[')) return null;
  const role = speaker(message.role);
  if (!role || typeof message.transcript !== 'string') return null;
  const text = clip(message.transcript.trim().replace(/\s+/g, ' '));
  if (!text) return null;
  const kind = message.transcriptType;
  if (kind !== undefined && kind !== 'partial' && kind !== 'final') return null;
  return { role, final: kind !== 'partial', text };
}

function readSpeechUpdate(message: unknown): { role: Speaker; started: boolean } | null {
  if (!isRecord(message) || message.type !== 'speech-update') return null;
  const role = speaker(message.role);
  if (!role || (message.status !== 'started' && message.status !== 'stopped')) return null;
  return { role, started: message.status === 'started' };
}
