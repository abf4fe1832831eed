import type { Queryable } from '@engage/db';
import { normaliseQuestion } from '@engage/http-contract/conversations';

/**
 * The questions operators dismissed from the Unanswered tab, per assistant: stored by their
 * normalised text (case, spacing and punctuation aside), as answered questions are matched.
 * @module
 */

/** Dismisses `question` for `assistantId`; dismissing it again changes nothing. */
export async function dismissQuestion(
  db: Queryable,
  assistantId: string,
  question: string,
  dismissedBy: string,
): Promise<void> {
  await db.query(
    `insert into dismissed_questions (assistant_id, question_key, dismissed_by) values ($1, $2, $3)
     on conflict (assistant_id, question_key) do nothing`,
    [assistantId, normaliseQuestion(question), dismissedBy],
  );
}

/** The dismissed questions (normalised) of these assistants. */
export async function dismissedQuestions(
  db: Queryable,
  assistantIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const byAssistant = new Map<string, Set<string>>();
  if (assistantIds.length === 0) return byAssistant;
  const { rows } = await db.query<{ assistant_id: string; question_key: string }>(
    'select assistant_id, question_key from dismissed_questions where assistant_id = any($1)',
    [[...assistantIds]],
  );
  for (const { assistant_id, question_key } of rows) {
    const set = byAssistant.get(assistant_id) ?? new Set<string>();
    set.add(question_key);
    byAssistant.set(assistant_id, set);
  }
  return byAssistant;
}
