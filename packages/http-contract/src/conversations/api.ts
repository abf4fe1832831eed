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
