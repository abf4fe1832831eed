/**
 * Ranked retrieval over passages (BM25 through minisearch) and the choice of an answer: the best
 * passage is quoted only when it covers most of what the question asks (its content words, weighed
 * by how rare each is in the documents); otherwise the assistant says it does not know. Pure: no
 * I/O, the same passages and question always give the same answer.
 * @module
 */
import MiniSearch from 'minisearch';
import type { Passage } from './passages.js';
import { isGreeting, term, terms, VAGUE_TERMS, words } from './terms.js';

export interface SourcedPassage extends Passage {
  /** The file the passage comes from: searched, never said (a visitor is not shown internal names). */
  fileName: string;
  /** The document's title (the heading it opens with), cited in the answer when it has one. */
  title?: string;
}

export type Retrieval =
  | { kind: 'passage'; passage: SourcedPassage; score: number; coverage: number }
  /** The question has content words but no passage covers enough of them. */
  | { kind: 'unknown' }
  /** The question has no content words (only stop words, or nothing). */
  | { kind: 'empty'; greeting: boolean };

/**
 * Share of the question's weight a passage must match: more than half, so one incidental shared
 * word in a two-word question ("what day is it today?" against "…within 14 days") is not enough.
 */
export const MIN_COVERAGE = 0.6;

/** Results of the BM25 ranking considered for coverage. */
const CANDIDATES = 10;

interface Doc {
  id: number;
  text: string;
  heading: string;
  fileName: string;
}

const tokenize = (text: string) => words(text);
const processTerm = (word: string) => term(word) ?? null;

/** An index of passages from one assistant's documents. */
export class PassageIndex {
  readonly size: number;
  readonly #passages: readonly SourcedPassage[];
  readonly #search: MiniSearch<Doc>;
  /** In how many passages each term occurs (for the question's weights). */
  readonly #documentFrequency = new Map<string, number>();

  constructor(passages: readonly SourcedPassage[]) {
    this.#passages = passages;
    this.size = passages.length;
    this.#search = new MiniSearch<Doc>({
      fields: ['text', 'heading', 'fileName'],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { text: 2, heading: 1, fileName: 0.5 },
        // A typo in a long word still meets it; short words must match exactly.
        fuzzy: (t) => (t.length >= 7 ? 1 : 0),
        combineWith: 'OR',
      },
    });
    this.#search.addAll(
      passages.map((p, id) => ({ id, text: p.text, heading: p.heading ?? '', fileName: p.fileName })),
    );
    for (const p of passages)
      for (const t of new Set(terms(`${p.text} ${p.heading ?? ''} ${p.fileName}`)))
        this.#documentFrequency.set(t, (this.#documentFrequency.get(t) ?? 0) + 1);
  }

  /** BM25's inverse document frequency; a word found nowhere weighs as one found once; vague words a fifth. */
  #weight(t: string): number {
    const n = Math.max(1, this.#documentFrequency.get(t) ?? 0);
    const idf = Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
    return VAGUE_TERMS.has(t) ? idf / 5 : idf;
  }

  /** The best passage for a question, or why there is none. */
  retrieve(question: string): Retrieval {
    const asked = terms(question);
    if (isGreeting(question)) return { kind: 'empty', greeting: true };
    if (asked.length === 0) return { kind: 'empty', greeting: false };
    if (this.size === 0) return { kind: 'unknown' };
    const total = asked.reduce((sum, t) => sum + this.#weight(t), 0);
    let best: { id: number; score: number; coverage: number } | null = null;
    for (const result of this.#search.search(question).slice(0, CANDIDATES)) {
      // A vague word ("day") never counts as a match: alone it would quote any passage with "days".
      const matched = new Set(result.queryTerms.filter((t) => !VAGUE_TERMS.has(t)));
      const coverage =
        asked.filter((t) => matched.has(t)).reduce((sum, t) => sum + this.#weight(t), 0) / total;
      if (!best || coverage > best.coverage + 1e-9)
        best = { id: result.id as number, score: result.score, coverage };
    }
    if (!best || best.coverage < MIN_COVERAGE) return { kind: 'unknown' };
    return { kind: 'passage', passage: this.#passages[best.id]!, score: best.score, coverage: best.coverage };
  }
}

export const NO_DOCUMENTS = "I have no documents to answer from, so I can't answer that offline.";
export const DONT_KNOW = "I don't know that from my documents.";
export const ASK_A_QUESTION = 'Ask me a question about my documents.';

/** What the assistant says for a retrieval: the passage quoted with its document's title if any, or why not. */
export function answerText(retrieval: Retrieval, greeting: string | null): string {
  switch (retrieval.kind) {
    case 'passage': {
      const { title, text } = retrieval.passage;
      return title ? `From ${title}: "${text}"` : `"${text}"`;
    }
    case 'unknown':
      return DONT_KNOW;
    case 'empty':
      return retrieval.greeting && greeting ? greeting : ASK_A_QUESTION;
  }
}
