/**
 * Words as the local assistant's retrieval compares them: lower case, accents folded, stop words
 * and question fillers dropped, and a light English stemmer, so "How long do refunds take?" meets
 * "Refunds are paid within 14 days" on "refund". Pure.
 * @module
 */

/** Function words, and the words questions are made of that say nothing about their subject. */
const STOP_WORDS = new Set(
  (
    'a an the and or but nor if then else so than too very of to in on at by for from with without ' +
    'into onto over under about above below between through during before after up down out off ' +
    'again further once here there when where why how what which who whom whose this that these ' +
    'those am is are was were be been being have has had having do does did doing done i me my ' +
    'mine myself we us our ours you your yours he him his she her hers it its they them their ' +
    'theirs what whats whatever all any both each few more most other some such no not only own ' +
    'same can could would should will shall may might must just also really actually please thanks ' +
    'thank tell say said know knows want wants like get gets got give make need needs take takes ' +
    'taking go goes going come work works long much many often far soon ok okay yes hi hello hey ' +
    'dont doesnt didnt cant isnt arent im ive youre whos s t d ll re ve'
  ).split(' '),
);

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

/**
 * A light suffix stemmer (a small part of Porter's): plurals, -ing, -ed, -ly and a final -e or -y,
 * enough to meet inflections of the same word; irregular forms (paid/pay) stay apart.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = `${w.slice(0, -3)}i`;
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const undouble = (s: string) => (/([^aeiouslz])\1$/.test(s) ? s.slice(0, -1) : s);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  else if (w.length > 3 && w.endsWith('y')) w = `${w.slice(0, -1)}i`;
  return w;
}

/** One word as indexed and searched, or null for a stop word. */
export function term(word: string): string | null {
  return STOP_WORDS.has(word) ? null : stem(word);
}

/**
 * Words about the moment or about anything at all ("What day is it?", "What time is it now?"): a
 * question keeps them, but they weigh little and never match on their own, so "day" alone does not
 * meet "…within 14 days" while "How many days do refunds take?" still meets the refunds passage.
 */
export const VAGUE_TERMS: ReadonlySet<string> = new Set(
  'day days today tonight tomorrow yesterday now time date week year thing things way someone something'
    .split(' ')
    .map(stem),
);

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
