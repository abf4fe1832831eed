/**
 * Words as the local assistant's retrieval compares them: lower case, accents folded, English stop
 * words dropped (the `stopword` package's list) and Porter's stemmer (`stemmer`), so "When are
 * refunds paid?" meets "Refunds are paid within 14 days" on "refund" and "paid". Pure.
 * @module
 */
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

/**
 * The package's English stop words, and the question words it lacks that questions in the tests
 * need dropped ("When will my delivery arrive?", "What does the Team plan cost?", "How long does
 * delivery take?"): kept as content words they outweigh the subject and no passage is quoted.
 */
const STOP_WORDS: ReadonlySet<string> = new Set([...eng, 'when', 'will', 'does', 'long']);

/** Words a greeting is made of: a question of only these gets the assistant's greeting. */
const GREETING_WORDS = new Set(
  'hi hello hey hiya howdy greetings good morning afternoon evening there yo'.split(' '),
);

/** Splits text into lower-case words, accents folded ("Café" → "cafe"). */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** One word's stem (Porter's), so inflections of a word meet; irregular forms (paid/pay) stay apart. */
export const stem = (word: string): string => stemmer(word);

/**
 * Terms about the moment rather than a subject ("What day is it?"): a question keeps them, but they
 * weigh little and never match on their own, so "day" alone does not meet "…within 14 days" while
 * "How many days do refunds take?" still meets the refunds passage.
 */
export const VAGUE_TERMS: ReadonlySet<string> = new Set(['day'].map(stem));

/** One word as indexed and searched, or null for a stop word. */
export function term(word: string): string | null {
  return STOP_WORDS.has(word) ? null : stem(word);
}

/** The distinct terms of a text, in order. */
export function terms(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) {
    const t = term(w);
    if (t) out.add(t);
  }
  return [...out];
}

/** True when every word of the text is a greeting word ("Hello there!"). */
export function isGreeting(text: string): boolean {
  const ws = words(text);
  return ws.length > 0 && ws.every((w) => GREETING_WORDS.has(w));
}
