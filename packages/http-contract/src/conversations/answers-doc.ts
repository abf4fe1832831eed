import { normaliseQuestion } from '../unanswered.js';

/**
 * The "Answers" document of an assistant: one markdown file of the owner's answers to questions
 * the assistant could not answer, a `## question` heading over each answer. The local assistant
 * indexes a section's heading with its text, so the question asked again finds its answer.
 * Saving an answer to a question already there replaces that answer. Pure.
 * @module
 */

/** The file's name at the provider, and the knowledge base (query tool) that holds it. */
export const ANSWERS_FILE_NAME = 'Answers.md';
export const ANSWERS_KB_NAME = 'Answers';
export const ANSWERS_FUNCTION_NAME = 'answers';
export const ANSWERS_DESCRIPTION = "The site owner's answers to visitors' questions.";

export const MAX_QUESTION_CHARS = 500;
export const MAX_ANSWER_CHARS = 4_000;
/** Answers kept in one document; the oldest go first past it (the file stays small to upload). */
export const MAX_ANSWERS = 500;
/**
 * The largest Answers document saved, in bytes of its UTF-8 text. The provider documents no hard
 * limit on a knowledge-base file but advises keeping each "under 300KB" (docs/decisions.md); a save
 * that would make the document bigger is refused, and the operator edits or removes answers first.
 */
export const MAX_ANSWERS_FILE_BYTES = 300_000;

/** The size of a document as uploaded (UTF-8). */
export const answersFileBytes = (markdown: string): number => new TextEncoder().encode(markdown).length;

export interface AnswerEntry {
  question: string;
  answer: string;
}

const TITLE = '# Answers';

/**
 * A visitor's question as the plain text of a heading: one line whatever the reader takes for a line
 * break (control characters, NEL, the Unicode line and paragraph separators become spaces), without
 * heading marks of its own at either end. The question is a visitor's words, so it must not shape
 * the file: see `escapeHeading` for the characters that could.
 */
export const headingText = (question: string): string =>
  question
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^#+\s*/, '')
    .replace(/\s+#+$/, '')
    .slice(0, MAX_QUESTION_CHARS);

/**
 * Markdown and HTML that could open something reaching past the heading's line in a lenient reader
 * (a comment or tag, a link, code, emphasis) is written escaped, and read back unescaped, so the
 * question keeps its words and the document keeps its sections.
 */
const HEADING_SPECIALS = /[\\`*_[\]<>&]/g;
const escapeHeading = (text: string) => text.replace(HEADING_SPECIALS, (c) => `\\${c}`);
const unescapeHeading = (text: string) => text.replace(/\\([\\`*_[\]<>&])/g, '$1');

/** An answer as section text: a line that would start a heading is escaped, blank runs folded. */
const sectionText = (answer: string) =>
  answer
    .replace(/\r\n?/g, '\n')
    .trim()
    .slice(0, MAX_ANSWER_CHARS)
    .split('\n')
    .map((line) => (/^\s*#/.test(line) ? `\\${line.trimStart()}` : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');

/** The entries of a document (anything before the first `## ` is the title and is dropped). */
export function parseAnswers(markdown: string): AnswerEntry[] {
  const entries: AnswerEntry[] = [];
  let current: AnswerEntry | null = null;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      if (current) entries.push(current);
      current = { question: unescapeHeading(heading[1]!), answer: '' };
    } else if (current) current.answer += `${line}\n`;
  }
  if (current) entries.push(current);
  return entries
    .map((e) => ({ question: e.question, answer: e.answer.trim() }))
    .filter((e) => e.question && e.answer);
}

export function renderAnswers(entries: readonly AnswerEntry[]): string {
  const sections = entries.map(
    (e) => `## ${escapeHeading(headingText(e.question))}\n\n${sectionText(e.answer)}\n`,
  );
  return `${[`${TITLE}\n`, ...sections].join('\n')}`.replace(/\n*$/, '\n');
}

/** The document with the answer added, or replacing the answer to the same question. */
export function mergeAnswer(markdown: string | null, question: string, answer: string): string {
  const entries = markdown ? parseAnswers(markdown) : [];
  const heading = headingText(question);
  if (!heading) throw new RangeError('The question has no words to file the answer under.');
  const key = normaliseQuestion(heading);
  const kept = entries.filter((e) => normaliseQuestion(e.question) !== key);
  kept.push({ question: heading, answer: sectionText(answer) });
  return renderAnswers(kept.slice(-MAX_ANSWERS));
}

/** The normalised questions a document answers. */
export const answeredQuestions = (markdown: string): Set<string> =>
  new Set(parseAnswers(markdown).map((e) => normaliseQuestion(e.question)));
