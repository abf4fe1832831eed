import { describe, expect, it } from 'vitest';
import { toConversations, visitorTookPart, type ProviderCall } from './conversation.js';

const call = (id: string, messages: { role: string; message: string }[]): ProviderCall => ({
  id,
  createdAt: '2026-11-28T10:00:00.000Z',
  assistantId: 'asst-index',
  messages,
});

describe('visitorTookPart', () => {
  it('is false for a call that never heard the visitor (no microphone, hung up at the greeting)', () => {
    const conversations = toConversations(
      [
        call('silent', []),
        call('greeted', [{ role: 'bot', message: 'Hello, how can I help?' }]),
        call('spoken', [
          { role: 'bot', message: 'Hello, how can I help?' },
          { role: 'user', message: 'When are you open?' },
        ]),
        call('blank', [{ role: 'user', message: '   ' }]),
      ],
      [],
    );
    const tookPart = Object.fromEntries(
      conversations.map((c) => [c.key.replace(/^\w+:/, ''), visitorTookPart(c)]),
    );
    expect(tookPart).toEqual({ silent: false, greeted: false, spoken: true, blank: false });
  });

  it('is true for a typed chat', () => {
    const [chat] = toConversations(
      [],
      [
        {
          id: 'chat-1',
          createdAt: '2026-11-28T10:00:00.000Z',
          assistantId: 'asst-index',
          input: 'Where do I park?',
          output: [{ role: 'assistant', content: 'Behind the building.' }],
        },
      ],
    );
    expect(chat && visitorTookPart(chat)).toBe(true);
  });
});
