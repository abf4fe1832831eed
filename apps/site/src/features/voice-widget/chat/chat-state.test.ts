import { describe, expect, it } from 'vitest';
import { chatReducer, initialChatState, type ChatState } from './chat-state';

const start = initialChatState({ sessionId: null, messages: [] });

describe('chatReducer', () => {
  it('adds a finished exchange, takes the new session and announces the answer', () => {
    const sending = chatReducer(start, { type: 'send', input: 'Hi' });
    expect(sending.pending).toBe('Hi');
    const done = chatReducer(sending, {
      type: 'answered',
      input: 'Hi',
      answer: 'Hello',
      sessionId: 's1',
      chatId: 'chat-1',
    });
    expect(done).toEqual<ChatState>({
      sessionId: 's1',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
      pending: null,
      error: null,
      announcement: 'Hello',
      // The turn the visitor may ask the owner about by mail.
      lastChatId: 'chat-1',
    });
  });

  it('keeps the session when an answer comes without one', () => {
    const state = { ...start, sessionId: 's1' };
    expect(chatReducer(state, { type: 'answered', input: 'a', answer: 'b', sessionId: null }).sessionId).toBe(
      's1',
    );
  });

  it('ignores a second send while one is pending, and clears the error on a new send', () => {
    const sending = chatReducer(start, { type: 'send', input: 'One' });
    expect(chatReducer(sending, { type: 'send', input: 'Two' }).pending).toBe('One');
    const failed = chatReducer(sending, { type: 'failed', message: 'No.' });
    expect(failed).toMatchObject({ pending: null, error: 'No.', messages: [] });
    expect(chatReducer(failed, { type: 'send', input: 'One' }).error).toBeNull();
  });

  it('starts over with nothing kept', () => {
    const done = chatReducer(chatReducer(start, { type: 'send', input: 'Hi' }), {
      type: 'answered',
      input: 'Hi',
      answer: 'Hello',
      sessionId: 's1',
    });
    expect(chatReducer(done, { type: 'reset' })).toEqual(start);
  });
});
