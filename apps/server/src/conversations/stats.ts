import type { Queryable } from '@engage/db';
import type { ConversationStats, StatsDay } from '@engage/http-contract/conversations';

/**
 * The trends of /conversations from the database alone (conversation_index and answer_requests):
 * three grouped queries over indexed columns, whatever the provider holds.
 * @module
 */

const DAY_MS = 86_400_000;

// A call is one row; a chat session as many rows as it had turns, so chats are counted by session.
// Call ids and session ids never meet, so the unanswered of each kind add up.
const COUNTS = `count(*) filter (where kind = 'call')::int as calls,
       count(distinct conversation_key) filter (where kind = 'chat')::int as chats,
       (count(*) filter (where kind = 'call' and unanswered)
        + count(distinct conversation_key) filter (where kind = 'chat' and unanswered))::int as unanswered`;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every day of the period, oldest first, the days without rows counted 0. Pure. */
export function fillDays(days: number, now: number, rows: readonly Partial<StatsDay>[]): StatsDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  return Array.from({ length: days }, (_, i) => {
    const day = dayOf(today - (days - 1 - i) * DAY_MS);
    const row = byDay.get(day);
    return {
      day,
      calls: row?.calls ?? 0,
      chats: row?.chats ?? 0,
      unanswered: row?.unanswered ?? 0,
      mailed: row?.mailed ?? 0,
    };
  });
}

export async function conversationStats(
  db: Queryable,
  days: number,
  now: number,
  indexedAt: string | null,
): Promise<ConversationStats> {
  // From the start of the first day of the period (UTC), so each day is whole.
  const from = new Date(Date.parse(`${dayOf(now - (days - 1) * DAY_MS)}T00:00:00.000Z`)).toISOString();
  const [perDay, totals, mailed, waiting] = await Promise.all([
    db.query<{ day: string; calls: number; chats: number; unanswered: number }>(
      `select to_char(started_at at time zone 'UTC', 'YYYY-MM-DD') as day, ${COUNTS}
         from conversation_index where started_at >= $1 group by 1`,
      [from],
    ),
    db.query<{ calls: number; chats: number; unanswered: number }>(
      `select ${COUNTS}
         from conversation_index where started_at >= $1`,
      [from],
    ),
    db.query<{ day: string; mailed: number }>(
      `select to_char(sent_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as mailed
         from answer_requests where sent_at >= $1 group by 1`,
      [from],
    ),
    db.query<{ waiting: number }>(
      `select count(distinct (assistant_id, question_key))::int as waiting from answer_requests
        where answered_at is null and expires_at > now()`,
    ),
  ]);
  // Days with mail and no conversation still count their mail.
  const byDay = new Map<string, Partial<StatsDay>>(perDay.rows.map((r) => [r.day, r]));
  for (const { day, mailed: count } of mailed.rows) byDay.set(day, { ...byDay.get(day), day, mailed: count });
  const t = totals.rows[0] ?? { calls: 0, chats: 0, unanswered: 0 };
  const conversations = Number(t.calls) + Number(t.chats);
  return {
    days,
    perDay: fillDays(days, now, [...byDay.values()]),
    totals: {
      conversations,
      calls: Number(t.calls),
      chats: Number(t.chats),
      unanswered: Number(t.unanswered),
      unansweredShare: conversations === 0 ? 0 : Number(t.unanswered) / conversations,
      waiting: Number(waiting.rows[0]?.waiting ?? 0),
      mailed: mailed.rows.reduce((sum, r) => sum + Number(r.mailed), 0),
    },
    indexedAt,
  };
}
