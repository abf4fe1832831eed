import { mergeAnswer, parseAnswers, answeredQuestions } from '@engage/http-contract/conversations';
import {
  callSchema,
  chatSchema,
  firstQuestion,
  matchesSearch,
  parseItems,
  toConversations,
  type ProviderCall,
  type ProviderChat,
} from '@engage/http-contract/conversations';
import { normaliseQuestion, unansweredQuestions } from '@engage/http-contract/conversations';
import { describe, expect, it } from 'vitest';
import { conversationsCsv } from './csv';
import { EMPTY_FILTERS, callQuery, chatQuery, dayStart, filtersProblem, PAGE_SIZE } from './filters';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();

const call: ProviderCall = {
  id: 'call-1',
  createdAt: iso(0),
  assistantId: 'asst-index',
  startedAt: iso(1),
  endedAt: iso(61),
  endedReason: 'customer-ended-call',
  messages: [
    { role: 'system', message: 'You are helpful', time: T0, secondsFromStart: 0 },
    { role: 'bot', message: 'Hello, how can I help?', time: T0 + 1000, secondsFromStart: 1 },
    { role: 'user', message: '  Where do I   park? ', time: T0 + 5000, secondsFromStart: 5 },
    { role: 'bot', message: "I don't know that from my documents.", time: T0 + 6000, secondsFromStart: 6 },
  ],
};

const chat = (id: string, at: number, input: ProviderChat['input'], answer: string, sessionId = 's1') =>
  ({
    id,
    createdAt: iso(at),
    updatedAt: iso(at),
    assistantId: 'asst-index',
    sessionId,
    input,
    output: [{ role: 'assistant', content: answer }],
  }) satisfies ProviderChat;

describe('conversations from the provider', () => {
  it('makes a call one conversation with roles, times, duration and its first question', () => {
    const [c] = toConversations([call], []);
    expect(c).toMatchObject({
      key: 'call:call-1',
      kind: 'voice',
      ids: ['call-1'],
      durationSeconds: 60,
      endedReason: 'customer-ended-call',
      firstQuestion: 'Where do I park?',
    });
    expect(c!.lines.map((l) => l.role)).toEqual(['system', 'assistant', 'visitor', 'assistant']);
    expect(c!.lines[2]!.at).toBe(T0 + 5000);
  });

  it('reads artifact.messages when the call has no messages, and an unended call has no duration', () => {
    const [c] = toConversations(
      [{ id: 'c2', createdAt: iso(0), artifact: { messages: [{ role: 'user', message: 'Hi there' }] } }],
      [],
    );
    expect(c).toMatchObject({ firstQuestion: 'Hi there', durationSeconds: null });
  });

  it("makes one conversation of a session's chats, in order, newest conversation first", () => {
    const list = toConversations(
      [call],
      [
        chat('b', 30, [{ role: 'user', content: 'And on Sunday?' }], 'Closed.'),
        chat('a', 20, 'When are you open?', 'Nine to five.'),
        chat('x', 500, 'Other session', 'Sure.', 's2'),
      ],
    );
    expect(list.map((c) => c.key)).toEqual(['chat:s2', 'chat:s1', 'call:call-1']);
    const session = list[1]!;
    expect(session).toMatchObject({ kind: 'chat', ids: ['a', 'b'], durationSeconds: 10 });
    expect(session.firstQuestion).toBe('When are you open?');
    expect(session.lines.map((l) => `${l.role}:${l.text}`)).toEqual([
      'visitor:When are you open?',
      'assistant:Nine to five.',
      'visitor:And on Sunday?',
      'assistant:Closed.',
    ]);
  });

  it('leaves out list items that are not calls or chats, and finds no first question without one', () => {
    expect(parseItems(callSchema, [call, { nope: 1 }, null]).map((c) => c.id)).toEqual(['call-1']);
    expect(parseItems(chatSchema, [{ id: 'a' }])).toEqual([]);
    expect(firstQuestion([{ role: 'assistant', text: 'Hello', at: null }])).toBe('');
  });

  it('searches the whole text, any case and spacing', () => {
    const [c] = toConversations([call], []);
    expect(matchesSearch(c!, 'WHERE do i')).toBe(true);
    expect(matchesSearch(c!, 'from my')).toBe(true);
    expect(matchesSearch(c!, 'refund')).toBe(false);
    expect(matchesSearch(c!, '  ')).toBe(true);
  });
});

describe('filters to provider queries', () => {
  it('asks both lists for a page, newest first, by creation time', () => {
    expect(callQuery(EMPTY_FILTERS, null)).toEqual({ limit: PAGE_SIZE });
    expect(chatQuery(EMPTY_FILTERS, null)).toEqual({ limit: PAGE_SIZE, page: 1, sortOrder: 'DESC' });
  });

  it('sends the assistant, kind and date range; the next page is what was created before the cursor', () => {
    const filters = { ...EMPTY_FILTERS, assistantId: 'asst-1', from: '2026-11-01', to: '2026-11-24' };
    const q = callQuery(filters, null)!;
    expect(q).toMatchObject({ assistantId: 'asst-1', createdAtGe: dayStart('2026-11-01') });
    // The end day is included: up to the start of the next.
    expect(q.createdAtLt).toBe(dayStart('2026-11-25'));
    const cursor = new Date(Date.parse(dayStart('2026-11-10')!)).toISOString();
    expect(chatQuery(filters, cursor)!.createdAtLt).toBe(cursor);
    expect(callQuery({ ...filters, kind: 'chat' }, null)).toBeNull();
    expect(chatQuery({ ...filters, kind: 'voice' }, null)).toBeNull();
  });

  it('refuses dates that are not dates, and a range that ends before it starts', () => {
    expect(filtersProblem({ ...EMPTY_FILTERS, from: '2026-02-31' })).toMatch(/start date is not a valid/);
    expect(filtersProblem({ ...EMPTY_FILTERS, to: 'yesterday' })).toMatch(/end date is not a valid/);
    expect(filtersProblem({ ...EMPTY_FILTERS, from: '2026-11-02', to: '2026-11-01' })).toMatch(/after/);
    expect(filtersProblem({ ...EMPTY_FILTERS, from: '2026-11-01', to: '2026-11-01' })).toBeNull();
  });
});

describe('CSV export', () => {
  it('writes one row per conversation with its transcript, a visitor formula neutralised', () => {
    const evil = chat('e', 0, '=cmd|" /C calc"!A0', 'Sorry.', 's9');
    const csv = conversationsCsv(toConversations([call], [evil]), (id) => (id ? 'Index Assistant' : ''));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Started,Kind,Assistant,Duration (s),First question,Transcript,Ids');
    expect(csv).toContain(`${iso(1)},Voice,Index Assistant,60,Where do I park?,`);
    expect(csv).toContain(`,Chat,Index Assistant,0,"'=cmd|"" /C calc""!A0","Visitor: =cmd`);
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});

describe('unanswered questions', () => {
  const asked = (id: string, at: number, q: string, a: string, assistantId = 'asst-index') =>
    ({ ...chat(id, at, q, a, id), assistantId }) satisfies ProviderChat;

  it('lists the questions answered with an "I don\'t know", grouped with how often and when last', () => {
    const conversations = toConversations(
      [call],
      [
        asked('1', 100, 'Where do I park?', "I don't know that from my documents."),
        asked('2', 200, 'where do i PARK', "I don't know that from my documents."),
        asked('3', 300, 'When are you open?', 'From Opening hours: "Nine to five."'),
        asked(
          '4',
          400,
          'Do you sell gift cards?',
          "I have no documents to answer from, so I can't answer that offline.",
        ),
        asked('5', 500, 'Where do I park?', "I don't know.", 'asst-other'),
      ],
    );
    const list = unansweredQuestions(conversations);
    expect(list.map((q) => [q.assistantId, q.question, q.count])).toEqual([
      ['asst-other', 'Where do I park?', 1],
      ['asst-index', 'Do you sell gift cards?', 1],
      ['asst-index', 'where do i PARK', 3],
    ]);
    expect(list[2]!.lastAskedAt).toBe(T0 + 200_000);
  });

  it('drops a question once answered: in the Answers document, or answered when last asked', () => {
    const conversations = toConversations(
      [],
      [
        asked('1', 100, 'Where do I park?', "I don't know that from my documents."),
        asked('2', 100, 'Gift cards?', "I don't know that from my documents."),
        asked('3', 200, 'Gift cards?', 'From Answers.md: "Yes, at the desk."'),
      ],
    );
    expect(unansweredQuestions(conversations).map((q) => q.question)).toEqual(['Where do I park?']);
    const answered = new Map([['asst-index', new Set([normaliseQuestion('Where do I park')])]]);
    expect(unansweredQuestions(conversations, { answered })).toEqual([]);
  });

  it('uses configured phrases when given', () => {
    const conversations = toConversations([], [asked('1', 1, 'Price?', 'No idea, sorry.')]);
    expect(unansweredQuestions(conversations)).toEqual([]);
    expect(unansweredQuestions(conversations, { phrases: ['no idea'] })).toHaveLength(1);
  });
});

describe('the Answers document', () => {
  it('starts a document, appends answers, and replaces the answer to the same question', () => {
    const first = mergeAnswer(null, 'Where do I park?', 'Behind the building.');
    expect(first).toBe('# Answers\n\n## Where do I park?\n\nBehind the building.\n');
    const second = mergeAnswer(first, 'Gift cards?', 'Yes,\n\nat the desk.');
    const third = mergeAnswer(second, 'where do I PARK', 'In the garage.');
    expect(parseAnswers(third)).toEqual([
      { question: 'Gift cards?', answer: 'Yes,\n\nat the desk.' },
      { question: 'where do I PARK', answer: 'In the garage.' },
    ]);
    expect(answeredQuestions(third)).toEqual(new Set(['gift cards', 'where do i park']));
  });

  it('keeps an answer from starting sections of its own, and a question on one line', () => {
    const doc = mergeAnswer(null, '## Sneaky\nquestion', '## Injected heading\nText');
    expect(parseAnswers(doc)).toEqual([
      { question: 'Sneaky question', answer: '\\## Injected heading\nText' },
    ]);
  });
});
