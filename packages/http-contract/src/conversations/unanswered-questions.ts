import { isUnansweredReply, normaliseQuestion, UNANSWERED_PHRASES } from '../unanswered.js';
import type { Conversation } from './conversation.js';

/**
 * The visitors' questions the assistant did not answer: a visitor's line whose reply (the
 * assistant's next line) says it does not know (UNANSWERED_PHRASES). The same question (any case,
 * spacing or end punctuation) to the same assistant is one entry, with how often and when last it
 * was asked. A question whose latest asking was answered, or that the owner has answered in the
 * assistant's Answers document, is not listed. Pure.
 * @module
 */

export interface UnansweredQuestion {
  /** `<assistantId>\n<normalised question>`: one entry per question and assistant. */
  key: string;
  assistantId: string | null;
  /** The latest wording. */
  question: string;
  count: number;
  /** ms since the epoch. */
  lastAskedAt: number;
}

const keyOf = (assistantId: string | null, question: string) =>
  `${assistantId ?? ''}\n${normaliseQuestion(question)}`;

interface Asking {
  question: string;
  at: number;
  unanswered: boolean;
}

/** Each visitor question of a conversation with whether its reply was an "I don't know". */
function askings(conversation: Conversation, phrases: readonly string[]): Asking[] {
  const out: Asking[] = [];
  const { lines } = conversation;
  lines.forEach((line, i) => {
    if (line.role !== 'visitor' || !normaliseQuestion(line.text)) return;
    const next = lines.slice(i + 1).find((l) => l.role === 'visitor' || l.role === 'assistant');
    // Not replied to (yet): neither answered nor unanswered.
    if (!next || next.role !== 'assistant') return;
    out.push({
      question: line.text.replace(/\s+/g, ' ').trim(),
      at: line.at ?? conversation.startedAt,
      unanswered: isUnansweredReply(next.text, phrases),
    });
  });
  return out;
}

/**
 * The questions of one conversation whose reply was "I don't know" (the latest wording of each,
 * once): what a visitor of that conversation may ask the owner to answer by mail.
 */
export function unansweredIn(
  conversation: Conversation,
  phrases: readonly string[] = UNANSWERED_PHRASES,
): { question: string; key: string }[] {
  const byKey = new Map<string, string>();
  for (const asking of askings(conversation, phrases))
    if (asking.unanswered) byKey.set(normaliseQuestion(asking.question), asking.question);
  return [...byKey].map(([key, question]) => ({ key, question }));
}

export function unansweredQuestions(
  conversations: readonly Conversation[],
  options: {
    /** Normalised questions the owner has answered, per assistant id ('' for none). */
    answered?: ReadonlyMap<string, ReadonlySet<string>>;
    phrases?: readonly string[];
  } = {},
): UnansweredQuestion[] {
  const phrases = options.phrases ?? UNANSWERED_PHRASES;
  const groups = new Map<string, UnansweredQuestion & { latestAnswered: boolean; latestAt: number }>();
  for (const conversation of conversations)
    for (const asking of askings(conversation, phrases)) {
      const key = keyOf(conversation.assistantId, asking.question);
      const group = groups.get(key);
      if (!group) {
        groups.set(key, {
          key,
          assistantId: conversation.assistantId,
          question: asking.question,
          count: asking.unanswered ? 1 : 0,
          lastAskedAt: asking.unanswered ? asking.at : 0,
          latestAnswered: !asking.unanswered,
          latestAt: asking.at,
        });
        continue;
      }
      if (asking.unanswered) {
        group.count += 1;
        if (asking.at >= group.lastAskedAt) {
          group.lastAskedAt = asking.at;
          group.question = asking.question;
        }
      }
      if (asking.at >= group.latestAt) {
        group.latestAt = asking.at;
        group.latestAnswered = !asking.unanswered;
      }
    }
  return [...groups.values()]
    .filter((g) => g.count > 0 && !g.latestAnswered)
    .filter((g) => !options.answered?.get(g.assistantId ?? '')?.has(normaliseQuestion(g.question)))
    .map(({ key, assistantId, question, count, lastAskedAt }) => ({
      key,
      assistantId,
      question,
      count,
      lastAskedAt,
    }))
    .sort((a, b) => b.lastAskedAt - a.lastAskedAt || a.key.localeCompare(b.key));
}
