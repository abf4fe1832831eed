import { describe, expect, it } from 'vitest';
import type { ProviderCall, ProviderChat } from './conversation.js';
import { toConversations } from './conversation.js';
import { unansweredIn } from './unanswered-questions.js';

// The questions of one conversation a visitor may ask the owner to answer by mail: those whose
// reply was an "I don't know", once each.

const call: ProviderCall = {
  id: 'call-1',
  createdAt: '2026-11-28T10:00:00.000Z',
  assistantId: 'asst-index',
  messages: [
    { role: 'bot', message: 'Hello, how can I help?' },
    { role: 'user', message: 'When are you open?' },
    { role: 'bot', message: 'We open at nine.' },
    { role: 'user', message: 'Do you open on Sundays?' },
    { role: 'bot', message: "I don't know that from my documents." },
    { role: 'user', message: 'do you open on sundays' },
    { role: 'bot', message: "Sorry, I'm not sure." },
  ],
};

const chat = (input: string, reply: string): ProviderChat => ({
  id: 'chat-1',
  createdAt: '2026-11-28T10:00:00.000Z',
  assistantId: 'asst-index',
  sessionId: 's1',
  input,
  output: [{ role: 'assistant', content: reply }],
});

describe('unansweredIn', () => {
  it('finds the questions of a call the assistant did not know, once each, in their latest wording', () => {
    expect(unansweredIn(toConversations([call], [])[0]!)).toEqual([
      { key: 'do you open on sundays', question: 'do you open on sundays' },
    ]);
  });

  it('finds a chat turn\'s question when its answer was an "I don\'t know", and none when it was answered', () => {
    const [unanswered] = toConversations([], [chat('Can I park?', 'I have no documents to answer from.')]);
    expect(unansweredIn(unanswered!)).toEqual([{ key: 'can i park', question: 'Can I park?' }]);
    const [answered] = toConversations([], [chat('Can I park?', 'Behind the building.')]);
    expect(unansweredIn(answered!)).toEqual([]);
  });

  it("uses the owner's phrases when given", () => {
    const [turn] = toConversations([], [chat('Can I park?', 'No idea, ask at the desk.')]);
    expect(unansweredIn(turn!)).toEqual([]);
    expect(unansweredIn(turn!, ['No idea'])).toHaveLength(1);
  });
});
