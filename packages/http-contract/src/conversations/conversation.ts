import { z } from 'zod';

/**
 * The provider's calls and chats (its OpenAPI shapes, read leniently: a field the page does not
 * understand is left out, never a reason to fail the list) turned into the page's one kind of row,
 * a conversation. A call is one conversation; the chats of one session are one conversation, as the
 * visitor saw them in the widget. Pure.
 * @module
 */

const text = z.string().max(100_000);
const time = z.string().max(64);

/** UserMessage, BotMessage, SystemMessage… of a call: `role`, `message`, `time` (ms since the epoch). */
const callMessageSchema = z.looseObject({
  role: z.string().max(64),
  message: text.optional(),
  time: z.number().optional(),
  secondsFromStart: z.number().optional(),
});

export const callSchema = z.looseObject({
  id: z.string().min(1).max(200),
  createdAt: time,
  assistantId: z.string().max(200).optional(),
  type: z.string().max(64).optional(),
  startedAt: time.optional(),
  endedAt: time.optional(),
  endedReason: z.string().max(200).optional(),
  messages: z.array(z.unknown()).max(10_000).optional(),
  artifact: z.looseObject({ messages: z.array(z.unknown()).max(10_000).optional() }).optional(),
});
export type ProviderCall = z.infer<typeof callSchema>;

/** A chat message: `role` and `content` (text, or parts of which the text ones count). */
const chatMessageSchema = z.looseObject({
  role: z.string().max(64),
  content: z.union([text, z.array(z.unknown()).max(100), z.null()]).optional(),
});

export const chatSchema = z.looseObject({
  id: z.string().min(1).max(200),
  createdAt: time,
  updatedAt: time.optional(),
  assistantId: z.string().max(200).optional(),
  sessionId: z.string().max(200).optional(),
  input: z.union([text, z.array(z.unknown()).max(1_000)]).optional(),
  output: z.array(z.unknown()).max(1_000).optional(),
});
export type ProviderChat = z.infer<typeof chatSchema>;

export type Role = 'visitor' | 'assistant' | 'system' | 'tool';

export interface TranscriptLine {
  role: Role;
  text: string;
  /** When it was said, ms since the epoch (null when the provider did not say). */
  at: number | null;
}

export interface Conversation {
  /** `call:<id>` or `chat:<sessionId or chat id>`: stable across pages. */
  key: string;
  kind: 'voice' | 'chat';
  /** The provider's ids to read or delete: the call's, or every chat of the session. */
  ids: string[];
  assistantId: string | null;
  /** ms since the epoch: the call's start (or creation), the session's first chat. */
  startedAt: number;
  /** Seconds, or null while a call has not ended. */
  durationSeconds: number | null;
  endedReason: string | null;
  lines: TranscriptLine[];
  firstQuestion: string;
}

const ms = (iso: string | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/** The provider's role names onto the page's four. */
export function roleOf(role: string): Role {
  switch (role.toLowerCase()) {
    case 'user':
    case 'customer':
      return 'visitor';
    case 'bot':
    case 'assistant':
      return 'assistant';
    case 'system':
      return 'system';
    default:
      return 'tool';
  }
}

/** The text of a chat message's content: a string, or its text parts joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
    .filter(Boolean)
    .join(' ');
}

/** The first thing the visitor said or typed, folded to one line. */
export function firstQuestion(lines: readonly TranscriptLine[]): string {
  const line = lines.find((l) => l.role === 'visitor' && l.text.trim());
  return line ? line.text.replace(/\s+/g, ' ').trim() : '';
}

export function fromCall(call: ProviderCall): Conversation {
  const raw = call.messages?.length ? call.messages : (call.artifact?.messages ?? []);
  const lines: TranscriptLine[] = [];
  for (const item of raw) {
    const parsed = callMessageSchema.safeParse(item);
    if (!parsed.success || !parsed.data.message) continue;
    lines.push({ role: roleOf(parsed.data.role), text: parsed.data.message, at: parsed.data.time ?? null });
  }
  const started = ms(call.startedAt) ?? ms(call.createdAt) ?? 0;
  const ended = ms(call.endedAt);
  return {
    key: `call:${call.id}`,
    kind: 'voice',
    ids: [call.id],
    assistantId: call.assistantId ?? null,
    startedAt: started,
    durationSeconds: ended === null ? null : Math.max(0, Math.round((ended - started) / 1000)),
    endedReason: call.endedReason ?? null,
    lines,
    firstQuestion: firstQuestion(lines),
  };
}

/** One chat's own exchange: what was sent (`input`) and answered (`output`), at the chat's time. */
function chatLines(chat: ProviderChat): TranscriptLine[] {
  const at = ms(chat.createdAt);
  const lines: TranscriptLine[] = [];
  if (typeof chat.input === 'string') lines.push({ role: 'visitor', text: chat.input, at });
  else
    for (const item of chat.input ?? []) {
      const m = chatMessageSchema.safeParse(item);
      // A message array carries the context too: the visitor's own words are its user messages.
      if (m.success && roleOf(m.data.role) === 'visitor')
        lines.push({ role: 'visitor', text: contentText(m.data.content), at });
    }
  for (const item of chat.output ?? []) {
    const m = chatMessageSchema.safeParse(item);
    if (m.success) lines.push({ role: roleOf(m.data.role), text: contentText(m.data.content), at });
  }
  return lines.filter((l) => l.text.trim());
}

/** The chats of one session (any order) as one conversation. */
export function fromChats(chats: readonly ProviderChat[]): Conversation {
  const sorted = [...chats].sort((a, b) => (ms(a.createdAt) ?? 0) - (ms(b.createdAt) ?? 0));
  const first = sorted[0]!;
  const last = sorted.at(-1)!;
  const lines = sorted.flatMap(chatLines);
  const started = ms(first.createdAt) ?? 0;
  const ended = ms(last.updatedAt) ?? ms(last.createdAt) ?? started;
  return {
    key: `chat:${first.sessionId ?? first.id}`,
    kind: 'chat',
    ids: sorted.map((c) => c.id),
    assistantId: first.assistantId ?? null,
    startedAt: started,
    durationSeconds: Math.max(0, Math.round((ended - started) / 1000)),
    endedReason: null,
    lines,
    firstQuestion: firstQuestion(lines),
  };
}

/** Chats grouped by session (a chat without one is its own), calls as they are; newest first. */
export function toConversations(
  calls: readonly ProviderCall[],
  chats: readonly ProviderChat[],
): Conversation[] {
  const sessions = new Map<string, ProviderChat[]>();
  for (const chat of chats) {
    const key = chat.sessionId ?? `chat:${chat.id}`;
    const group = sessions.get(key);
    if (group) {
      if (!group.some((c) => c.id === chat.id)) group.push(chat);
    } else sessions.set(key, [chat]);
  }
  const seenCalls = new Set<string>();
  const out: Conversation[] = [];
  for (const call of calls) {
    if (seenCalls.has(call.id)) continue;
    seenCalls.add(call.id);
    out.push(fromCall(call));
  }
  for (const group of sessions.values()) out.push(fromChats(group));
  return out.sort((a, b) => b.startedAt - a.startedAt || a.key.localeCompare(b.key));
}

/**
 * True when the visitor said or typed something: a call that never heard them (no microphone, hung
 * up during the greeting) is no conversation, and is left out of the owner's list and its CSV.
 */
export const visitorTookPart = (conversation: Conversation): boolean => conversation.firstQuestion !== '';

/** Items of a list answer that match the schema; the others are left out. */
export function parseItems<T>(schema: z.ZodType<T>, items: readonly unknown[]): T[] {
  const out: T[] = [];
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** Does the conversation's text contain the search (any case, any spacing)? Empty search: yes. */
export function matchesSearch(conversation: Conversation, search: string): boolean {
  const wanted = search.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!wanted) return true;
  return conversation.lines.some((l) => l.text.toLowerCase().replace(/\s+/g, ' ').includes(wanted));
}
