/**
 * What a call kept of its conversation, in the provider's shapes: `messages` and
 * `artifact.messages` (the assistant's prompt as a SystemMessage, then BotMessage and UserMessage
 * with `time`/`endTime` in ms since 1970 and `secondsFromStart`), the OpenAI form, and the
 * `transcript` ("AI: …" and "User: …" lines) derived from them, as the provider derives it.
 * @module
 */
import { iso, json } from '../db.js';

/** A message a call room told the provider (rooms/transcript.ts ArtifactMessage). */
export interface StoredCallMessage {
  role: 'bot' | 'user';
  message: string;
  time: number;
  endTime: number;
  secondsFromStart: number;
}

/** Messages one call keeps (the oldest go past it), and characters of one message. */
export const CALL_MESSAGE_LIMITS = { perCall: 100, chars: 4_000 } as const;

type SystemMessage = { role: 'system'; message: string; time: number; secondsFromStart: number };
export type CallMessage = StoredCallMessage | SystemMessage;

/** The assistant's system prompt (model.messages), as the provider opens a call's messages with it. */
function systemPrompt(assistant: unknown): string | null {
  const messages = (assistant as { model?: { messages?: unknown } } | undefined)?.model?.messages;
  if (!Array.isArray(messages)) return null;
  const system = (messages as { role?: unknown; content?: unknown }[]).find((m) => m.role === 'system');
  return typeof system?.content === 'string' && system.content.trim() ? system.content : null;
}

/** A stored message as it may be answered: well-formed, its text within bounds. */
function wellFormed(value: unknown): StoredCallMessage | null {
  const m = value as Partial<StoredCallMessage> | null;
  if (!m || (m.role !== 'bot' && m.role !== 'user') || typeof m.message !== 'string') return null;
  const time = Number(m.time);
  if (!Number.isFinite(time)) return null;
  const endTime = Number.isFinite(Number(m.endTime)) ? Number(m.endTime) : time;
  return {
    role: m.role,
    message: m.message.slice(0, CALL_MESSAGE_LIMITS.chars),
    time,
    endTime,
    secondsFromStart: Math.max(0, Number(m.secondsFromStart) || 0),
  };
}

export interface CallConversationRow {
  data: unknown;
  messages?: unknown;
  started_at?: Date | string | null;
  ended_at?: Date | string | null;
}

/** The conversation fields of a Call: startedAt, endedAt, messages, transcript and artifact. */
export function callConversation(row: CallConversationRow): Record<string, unknown> {
  const stored = (json<unknown[]>(row.messages ?? []) ?? [])
    .map(wellFormed)
    .filter((m): m is StoredCallMessage => m !== null)
    // Rooms report messages as they end; the record is in the order they were said.
    .sort((a, b) => a.time - b.time);
  const startedAt = row.started_at ? iso(row.started_at) : undefined;
  const prompt = stored.length ? systemPrompt(json<{ assistant?: unknown }>(row.data).assistant) : null;
  const messages: CallMessage[] = prompt
    ? [
        {
          role: 'system',
          message: prompt,
          time: startedAt ? Date.parse(startedAt) : stored[0]!.time,
          secondsFromStart: 0,
        },
        ...stored,
      ]
    : stored;
  const transcript = stored.map((m) => `${m.role === 'bot' ? 'AI' : 'User'}: ${m.message}`).join('\n');
  return {
    ...(startedAt ? { startedAt } : {}),
    ...(row.ended_at ? { endedAt: iso(row.ended_at) } : {}),
    messages,
    transcript,
    artifact: {
      messages,
      messagesOpenAIFormatted: messages.map((m) => ({
        role: m.role === 'bot' ? 'assistant' : m.role,
        content: m.message,
      })),
      transcript,
    },
  };
}
