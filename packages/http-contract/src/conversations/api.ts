import { z } from 'zod';
import { headingText, MAX_ANSWER_CHARS, MAX_QUESTION_CHARS } from './answers-doc.js';
import type { UnansweredQuestion } from './unanswered-questions.js';

/**
 * The server's /api/conversations routes (operators and admins): the unanswered questions of the
 * site's assistants (scanned and cached on the server), and saving an answer into an assistant's
 * Answers document (one save per assistant at a time, so answers saved together are all kept).
 * @module
 */

export const ANSWERS_PATH = '/api/conversations/answers';
export const DISMISSED_PATH = '/api/conversations/dismissed';
export const UNANSWERED_PATH = '/api/conversations/unanswered';

/** POST /api/conversations/answers. */
export const saveAnswerBodySchema = z.strictObject({
  assistantId: z.string().trim().min(1, 'assistantId must not be empty').max(200, 'assistantId is too long'),
  question: z
    .string()
    .trim()
    .min(1, 'question must not be empty')
    .max(MAX_QUESTION_CHARS, `question must be at most ${MAX_QUESTION_CHARS} characters`)
    .refine((q) => headingText(q) !== '', 'question must have words, not only # marks or control characters'),
  answer: z
    .string()
    .trim()
    .min(1, 'answer must not be empty')
    .max(MAX_ANSWER_CHARS, `answer must be at most ${MAX_ANSWER_CHARS} characters`),
});
export type SaveAnswerBody = z.infer<typeof saveAnswerBodySchema>;

/** POST /api/conversations/dismissed: a question the operator does not mean to answer ("hi", "thanks"). */
export const dismissQuestionBodySchema = saveAnswerBodySchema.pick({ assistantId: true, question: true });
export type DismissQuestionBody = z.infer<typeof dismissQuestionBodySchema>;

/** GET /api/conversations/unanswered's answer. */
export interface UnansweredAnswer {
  questions: UnansweredQuestion[];
  /** How many conversations were read. */
  scanned: number;
  /** When the scan was made (ISO 8601): a cached answer is up to a minute old. */
  scannedAt: string;
}

/** GET: the visitors waiting for an answer by mail, and the answers mailed (operators and admins). */
export const ANSWER_REQUESTS_ADMIN_PATH = '/api/conversations/answer-requests';
/** POST `${ANSWER_REQUESTS_ADMIN_PATH}/{id}/send`: mails a saved answer again after a failed send. */
export const answerRequestSendPath = (id: string) =>
  `${ANSWER_REQUESTS_ADMIN_PATH}/${encodeURIComponent(id)}/send`;

/** One visitor's request for the answer to one question, as operators see it. */
export interface AnswerRequestView {
  id: string;
  assistantId: string;
  question: string;
  /** The unanswered question's key (UnansweredQuestion.key): where this visitor waits. */
  questionKey: string;
  email: string;
  /** ISO 8601. */
  requestedAt: string;
  /** When the owner's answer was saved for it; null while the visitor waits. */
  answeredAt: string | null;
  /** When the answer mail went; null while not (yet) sent. */
  sentAt: string | null;
  /** Why the last send failed; null when it did not. */
  sendError: string | null;
}

export interface AnswerRequestsAnswer {
  requests: AnswerRequestView[];
}

/** POST /api/conversations/answers's answer: saved, and how many waiting visitors were mailed. */
export interface SaveAnswerResult {
  saved: true;
  mailed: number;
  /** Sends that failed (each can be retried from the list). */
  notMailed: number;
}

/** GET `${STATS_PATH}?days=30`: the trends of the last `days` days (1 to 90), operators and admins. */
export const STATS_PATH = '/api/conversations/stats';
/** The periods the dashboard offers. */
export const STATS_PERIODS = [7, 30, 90] as const;
export const statsQuerySchema = z.strictObject({
  days: z.coerce
    .number('days must be a number of days')
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(90, 'days must be at most 90')
    .default(30),
});

export interface StatsDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  calls: number;
  chats: number;
  /** Conversations of the day in which the assistant could not answer something. */
  unanswered: number;
  /** Answers mailed to visitors that day. */
  mailed: number;
}

export interface ConversationStats {
  days: number;
  /** Oldest first, one entry per day of the period (days without conversations count 0). */
  perDay: StatsDay[];
  totals: {
    conversations: number;
    calls: number;
    chats: number;
    unanswered: number;
    /** unanswered / conversations (0 without conversations). */
    unansweredShare: number;
    /** Questions a visitor is waiting on for an answer by mail, now. */
    waiting: number;
    mailed: number;
  };
  /** When the figures were last brought up to date from the provider (ISO 8601). */
  indexedAt: string | null;
}
