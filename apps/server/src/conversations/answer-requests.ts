import type { Queryable } from '@engage/db';
import type { AnswerRequestView } from '@engage/http-contract/conversations';

/**
 * The `answer_requests` table: visitors' addresses left for the owner's answer to a question the
 * assistant could not answer. Plain functions over the database; expired rows are deleted by every
 * write and never read.
 * @module
 */

export interface NewAnswerRequest {
  conversationId: string;
  assistantId: string;
  question: string;
  /** The normalised question (normaliseQuestion), as answered questions are matched. */
  questionKey: string;
  email: string;
  expiresAt: Date;
}

interface Row {
  id: string;
  assistant_id: string;
  question: string;
  question_key: string;
  email: string;
  created_at: Date | string;
  answer: string | null;
  answered_at: Date | string | null;
  sent_at: Date | string | null;
  send_error: string | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export const toView = (row: Row): AnswerRequestView => ({
  id: row.id,
  assistantId: row.assistant_id,
  question: row.question,
  questionKey: `${row.assistant_id}\n${row.question_key}`,
  email: row.email,
  requestedAt: iso(row.created_at)!,
  answeredAt: iso(row.answered_at),
  sentAt: iso(row.sent_at),
  sendError: row.send_error,
});

const COLUMNS =
  'id, assistant_id, question, question_key, email, created_at, answer, answered_at, sent_at, send_error';

/** Deletes the rows whose conversation's time is up. */
export async function deleteExpired(db: Queryable): Promise<void> {
  await db.query('delete from answer_requests where expires_at <= now()');
}

/**
 * Records the requests (one statement). An address already waiting for (or mailed) the same
 * question keeps its row: one answer mail per question and address, however often it is asked.
 */
export async function addAnswerRequests(db: Queryable, requests: readonly NewAnswerRequest[]): Promise<void> {
  if (requests.length === 0) return;
  await deleteExpired(db);
  await db.query(
    `insert into answer_requests (conversation_id, assistant_id, question, question_key, email, expires_at)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
     on conflict (assistant_id, question_key, lower(email)) do nothing`,
    [
      requests.map((r) => r.conversationId),
      requests.map((r) => r.assistantId),
      requests.map((r) => r.question),
      requests.map((r) => r.questionKey),
      requests.map((r) => r.email),
      requests.map((r) => r.expiresAt.toISOString()),
    ],
  );
}

/** Every live request, newest first (at most `limit`). */
export async function listAnswerRequests(db: Queryable, limit = 500): Promise<AnswerRequestView[]> {
  await deleteExpired(db);
  const { rows } = await db.query<Row>(
    `select ${COLUMNS} from answer_requests where expires_at > now()
      order by created_at desc, id limit $1`,
    [limit],
  );
  return rows.map(toView);
}

/** Of these requests, the ones `readerId` has not seen yet (to be audited, then marked seen). */
export async function unseenBy(
  db: Queryable,
  readerId: string,
  requestIds: readonly string[],
): Promise<Set<string>> {
  if (requestIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    `select t.id::text as id from unnest($1::uuid[]) as t(id)
      where not exists (select 1 from answer_request_reads r where r.request_id = t.id and r.reader_id = $2)`,
    [[...requestIds], readerId],
  );
  return new Set(rows.map((r) => r.id));
}

/** Marks the requests seen by `readerId`. */
export async function markSeen(
  db: Queryable,
  readerId: string,
  requestIds: readonly string[],
): Promise<void> {
  if (requestIds.length === 0) return;
  await db.query(
    `insert into answer_request_reads (request_id, reader_id)
     select id, $2 from unnest($1::uuid[]) as t(id)
     on conflict do nothing`,
    [[...requestIds], readerId],
  );
}

/** Stores the owner's answer on the waiting requests for this question; returns their ids. */
export async function answerWaiting(
  db: Queryable,
  assistantId: string,
  questionKey: string,
  answer: string,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `update answer_requests set answer = $3, answered_at = now()
      where assistant_id = $1 and question_key = $2 and sent_at is null and expires_at > now()
      returning id`,
    [assistantId, questionKey, answer],
  );
  return rows.map((r) => r.id);
}

/** A send may take this long before another instance may try the same row again. */
const SEND_LEASE = "interval '5 minutes'";

/**
 * Claims one answered, unsent request for sending (null when it is sent, being sent elsewhere,
 * unanswered or gone): the claim is one statement, so one mail at most goes per request.
 */
export async function claimForSending(
  db: Queryable,
  id: string,
): Promise<(AnswerRequestView & { answer: string }) | null> {
  const { rows } = await db.query<Row>(
    `update answer_requests set sending_at = now()
      where id = $1 and sent_at is null and answer is not null and expires_at > now()
        and (sending_at is null or sending_at < now() - ${SEND_LEASE})
      returning ${COLUMNS}`,
    [id],
  );
  const row = rows[0];
  return row ? { ...toView(row), answer: row.answer! } : null;
}

/** How a claimed send ended. */
export async function finishSending(db: Queryable, id: string, error: string | null): Promise<void> {
  await db.query(
    `update answer_requests set sending_at = null,
            sent_at = case when $2::text is null then now() else null end, send_error = $2
      where id = $1`,
    [id, error],
  );
}

/** One request by id (live only), or null. */
export async function findAnswerRequest(db: Queryable, id: string): Promise<AnswerRequestView | null> {
  const { rows } = await db.query<Row>(
    `select ${COLUMNS} from answer_requests where id = $1 and expires_at > now()`,
    [id],
  );
  return rows[0] ? toView(rows[0]) : null;
}

/** A conversation deleted: its visitors' addresses go with it. */
export async function deleteForConversation(db: Queryable, conversationId: string): Promise<void> {
  await db.query('delete from answer_requests where conversation_id = $1', [conversationId]);
}
