/**
 * The benchmarks' 10 000 stored conversations, seeded by SQL into the embedded provider's tables:
 * 5 000 web calls of three messages (one in five an "I don't know") and 5 000 chat sessions of two
 * chats (one in seven unanswered), four minutes apart over two weeks, over three assistants.
 * @module
 */
import type { Db } from '@engage/db';
import { EMULATOR_ORG_ID } from '@engage/vapi-emulator';

export const CALLS = 5_000;
export const SESSIONS = 5_000;
const ASSISTANTS = `(array['asst_index','asst_ediscovery','asst_onboarding'])[1 + g % 3]`;

/** Seeds the conversations by SQL: what the rooms and chats would have stored over two weeks. */
export async function seedConversations(db: Db, now: Date): Promise<void> {
  await db.query(
    `insert into emulator_calls (id, org_id, assistant_id, status, ended_reason, data, messages,
       started_at, ended_at, created_at, updated_at)
     select 'bench-call-' || g, $1, ${ASSISTANTS}, 'ended', 'customer-ended-call',
       jsonb_build_object('orgId', $1::text, 'type', 'webCall', 'assistantId', ${ASSISTANTS},
         'assistant', jsonb_build_object('model', jsonb_build_object('messages',
           jsonb_build_array(jsonb_build_object('role', 'system', 'content', 'You speak for the site owner.'))))),
       jsonb_build_array(
         jsonb_build_object('role', 'bot', 'message', 'Hello! What would you like to know?',
           'time', t, 'endTime', t + 3000, 'secondsFromStart', 0),
         jsonb_build_object('role', 'user', 'message', 'Question ' || g || ' about topic ' || (g % 97),
           'time', t + 5000, 'endTime', t + 5000, 'secondsFromStart', 5),
         jsonb_build_object('role', 'bot', 'message',
           case when g % 5 = 0 then 'I don''t know that from my documents.' else 'Answer about topic ' || (g % 97) end,
           'time', t + 6000, 'endTime', t + 9000, 'secondsFromStart', 6)),
       at, at + interval '2 minutes', at, at + interval '2 minutes'
     from (select g, $2::timestamptz - g * interval '4 minutes' as at,
             (extract(epoch from $2::timestamptz - g * interval '4 minutes') * 1000)::bigint as t
           from generate_series(1, ${CALLS}) g) s`,
    [EMULATOR_ORG_ID, now],
  );
  await db.query(
    `insert into emulator_chat_sessions (id, org_id, channel, assistant_id, status, expires_at, created_at, updated_at)
     select 'bench-session-' || g, $1, 'web', ${ASSISTANTS}, 'completed', $2::timestamptz,
       $2::timestamptz - g * interval '4 minutes', $2::timestamptz - g * interval '4 minutes' + interval '1 minute'
     from generate_series(1, ${SESSIONS}) g`,
    [EMULATOR_ORG_ID, now],
  );
  await db.query(
    `insert into emulator_chats (id, org_id, session_id, assistant_id, data, created_at, updated_at)
     select 'bench-chat-' || g || '-' || k, $1, 'bench-session-' || g, ${ASSISTANTS},
       jsonb_build_object('input', 'Chat question ' || g || '.' || k || ' about topic ' || (g % 89),
         'output', jsonb_build_array(jsonb_build_object('role', 'assistant',
           'content', case when g % 7 = 0 then 'I don''t know that from my documents.' else 'An answer.' end))),
       $2::timestamptz - g * interval '4 minutes' + k * interval '1 minute',
       $2::timestamptz - g * interval '4 minutes' + k * interval '1 minute'
     from generate_series(1, ${SESSIONS}) g, generate_series(0, 1) k order by g desc, k`,
    [EMULATOR_ORG_ID, now],
  );
}
