/**
 * What an assistant says when it could not answer: the local assistant's own two answers (the
 * embedded provider's knowledge/retrieval.ts, NO_DOCUMENTS and DONT_KNOW; apps/server's
 * unanswered-phrases test keeps them in step) and the common "I don't know" forms a real model uses.
 * The conversations page lists a visitor's question as unanswered when the reply to it contains one
 * of these, compared without case, apostrophe style or repeated spaces. One list for the site and
 * the server.
 * @module
 */
export const UNANSWERED_PHRASES: readonly string[] = [
  // The local assistant (embedded provider).
  "I don't know that from my documents",
  'I have no documents to answer from',
  // Common forms of a model that could not answer.
  "I don't know",
  'I do not know',
  "I'm not sure",
  'I am not sure',
  "I don't have information",
  "I don't have that information",
  'I do not have information',
  "I couldn't find",
  'I could not find',
  "I'm sorry, I can't help with that",
  "I can't answer that",
  'I cannot answer that',
];

/** Text folded for comparison: lower case, one kind of apostrophe, single spaces. */
export const foldPhrase = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** True when `reply` contains one of `phrases` (default {@link UNANSWERED_PHRASES}). */
export function isUnansweredReply(reply: string, phrases: readonly string[] = UNANSWERED_PHRASES): boolean {
  const folded = foldPhrase(reply);
  return phrases.some((phrase) => {
    const p = foldPhrase(phrase);
    return p.length > 0 && folded.includes(p);
  });
}

/** A question folded for comparison: lower case, single spaces, no punctuation at either end. */
export const normaliseQuestion = (question: string): string =>
  question
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');
