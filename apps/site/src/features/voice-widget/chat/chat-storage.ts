import * as z from 'zod/mini';
import { MAX_ANSWER_CHARS } from './web-chat';

/**
 * The text conversation of one assistant, kept in sessionStorage so it survives a reload of the
 * tab (and ends with it). Versioned and bounded; anything unreadable counts as no conversation.
 * @module
 */

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface StoredChat {
  sessionId: string | null;
  messages: ChatMessage[];
}

/** The most messages kept (the oldest go first). */
export const MAX_STORED_MESSAGES = 40;
/** The most characters one stored conversation may take. */
export const MAX_STORED_CHARS = 100_000;

const VERSION = 1;
const PREFIX = `engage.chat.v${VERSION}.`;

export const emptyChat: StoredChat = { sessionId: null, messages: [] };

export function chatStorageKey(assistantId: string): string {
  return `${PREFIX}${assistantId}`;
}

const storedSchema = z.object({
  v: z.literal(VERSION),
  sessionId: z.nullable(z.string().check(z.minLength(1), z.maxLength(200))),
  messages: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.string().check(z.minLength(1), z.maxLength(MAX_ANSWER_CHARS)),
      }),
    )
    .check(z.maxLength(MAX_STORED_MESSAGES)),
});

/** The kept conversation, bounded: the newest messages that fit both limits. */
export function boundChat(chat: StoredChat): StoredChat {
  const messages = chat.messages.slice(-MAX_STORED_MESSAGES);
  let size = messages.reduce((n, m) => n + m.content.length, 0);
  while (messages.length > 0 && size > MAX_STORED_CHARS) size -= messages.shift()?.content.length ?? 0;
  // A conversation never starts with the assistant's half of an exchange cut in two.
  while (messages[0]?.role === 'assistant') messages.shift();
  return { sessionId: chat.sessionId, messages };
}

/** The stored conversation, or an empty one when there is none or it cannot be read. */
export function loadChat(storage: Pick<Storage, 'getItem'> | null, assistantId: string): StoredChat {
  try {
    const raw = storage?.getItem(chatStorageKey(assistantId));
    if (!raw || raw.length > MAX_STORED_CHARS * 2) return emptyChat;
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return emptyChat;
    return { sessionId: parsed.data.sessionId, messages: parsed.data.messages };
  } catch {
    return emptyChat; // storage blocked, or not JSON
  }
}

/** Keeps the conversation (bounded); an empty one removes the entry. Never throws. */
export function saveChat(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | null,
  assistantId: string,
  chat: StoredChat,
): void {
  const key = chatStorageKey(assistantId);
  try {
    if (!chat.sessionId && chat.messages.length === 0) {
      storage?.removeItem(key);
      return;
    }
    const bounded = boundChat(chat);
    storage?.setItem(key, JSON.stringify({ v: VERSION, ...bounded }));
  } catch {
    // Storage full or blocked: the conversation still works, it just will not survive a reload.
  }
}

/** The page's sessionStorage, or null where reading it throws (blocked by privacy settings). */
export function pageSessionStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
