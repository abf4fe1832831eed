import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../testing/memory-storage';
import {
  boundChat,
  chatStorageKey,
  emptyChat,
  loadChat,
  MAX_STORED_CHARS,
  MAX_STORED_MESSAGES,
  saveChat,
  type ChatMessage,
} from './chat-storage';

/** A Storage over a Map (jsdom's sessionStorage would leak between tests). */

const exchange = (n: number): ChatMessage[] => [
  { role: 'user', content: `question ${n}` },
  { role: 'assistant', content: `answer ${n}` },
];

describe('chat storage', () => {
  it('keeps the session and the messages per assistant, under a versioned key', () => {
    const storage = memoryStorage();
    saveChat(storage, 'asst_a', { sessionId: 'sess_a', messages: exchange(1) });
    saveChat(storage, 'asst_b', { sessionId: 'sess_b', messages: exchange(2) });
    expect(chatStorageKey('asst_a')).toBe('engage.chat.v1.asst_a');
    expect(loadChat(storage, 'asst_a')).toEqual({ sessionId: 'sess_a', messages: exchange(1) });
    expect(loadChat(storage, 'asst_b')).toEqual({ sessionId: 'sess_b', messages: exchange(2) });
    expect(loadChat(storage, 'asst_c')).toEqual(emptyChat);
  });

  it('removes the entry when the conversation is emptied', () => {
    const storage = memoryStorage();
    saveChat(storage, 'asst_a', { sessionId: 'sess_a', messages: exchange(1) });
    saveChat(storage, 'asst_a', emptyChat);
    expect(storage.getItem(chatStorageKey('asst_a'))).toBeNull();
  });

  it.each([
    ['not JSON', '{nope'],
    ['another version', JSON.stringify({ v: 2, sessionId: 's', messages: [] })],
    ['a wrong role', JSON.stringify({ v: 1, sessionId: 's', messages: [{ role: 'system', content: 'x' }] })],
    [
      'a non-string content',
      JSON.stringify({ v: 1, sessionId: 's', messages: [{ role: 'user', content: {} }] }),
    ],
    [
      'too many messages',
      JSON.stringify({ v: 1, sessionId: 's', messages: Array(500).fill(exchange(1)[0]) }),
    ],
    ['a huge value', 'x'.repeat(MAX_STORED_CHARS * 3)],
    ['null', 'null'],
  ])('ignores a corrupt entry (%s)', (_name, raw) => {
    const storage = memoryStorage({ [chatStorageKey('asst_a')]: raw });
    expect(loadChat(storage, 'asst_a')).toEqual(emptyChat);
  });

  it('never throws when storage is blocked or full', () => {
    const blocked = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    expect(loadChat(blocked, 'asst_a')).toEqual(emptyChat);
    expect(() => saveChat(blocked, 'asst_a', { sessionId: 's', messages: exchange(1) })).not.toThrow();
    expect(() => saveChat(blocked, 'asst_a', emptyChat)).not.toThrow();
    expect(loadChat(null, 'asst_a')).toEqual(emptyChat);
  });

  it('keeps only the newest messages, whole exchanges first', () => {
    const many = Array.from({ length: MAX_STORED_MESSAGES }, (_, i) => exchange(i)).flat();
    const bounded = boundChat({ sessionId: 's', messages: many });
    expect(bounded.messages).toHaveLength(MAX_STORED_MESSAGES);
    expect(bounded.messages.at(-1)).toEqual({
      role: 'assistant',
      content: `answer ${MAX_STORED_MESSAGES - 1}`,
    });
    expect(bounded.messages[0]?.role).toBe('user');

    const storage = memoryStorage();
    saveChat(storage, 'asst_a', { sessionId: 's', messages: many });
    expect(loadChat(storage, 'asst_a').messages).toEqual(bounded.messages);
  });

  it('drops the oldest messages when the conversation is too large, never starting with an answer', () => {
    const long = 'a'.repeat(9_000);
    const messages: ChatMessage[] = Array.from({ length: 15 }, () => [
      { role: 'user' as const, content: 'q' },
      { role: 'assistant' as const, content: long },
    ]).flat();
    const bounded = boundChat({ sessionId: 's', messages });
    const size = bounded.messages.reduce((n, m) => n + m.content.length, 0);
    expect(size).toBeLessThanOrEqual(MAX_STORED_CHARS);
    expect(bounded.messages[0]?.role).toBe('user');
    expect(bounded.messages.at(-1)).toEqual({ role: 'assistant', content: long });
  });
});
