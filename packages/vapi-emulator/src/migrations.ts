import { SEED_ASSISTANTS } from './seed.js';

/** A versioned migration, structurally the server's `Migration`. */
export interface EmulatorMigration {
  id: string;
  sql: string;
}

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * The emulator's tables. The server appends these after its own; every id is prefixed 'emulator/'
 * and every table 'emulator_', and nothing is schema-qualified (tests isolate by search_path).
 */
export const emulatorMigrations: EmulatorMigration[] = [
  {
    id: 'emulator/0001_resources',
    sql: `
      create table emulator_files (
        id text primary key,
        org_id text not null,
        name text not null,
        original_name text not null,
        mimetype text not null,
        bytes integer not null,
        purpose text,
        metadata jsonb,
        content bytea not null,
        -- Whether the content parses as its type: decides 'done' or 'failed' once ready_at passes.
        parse_ok boolean not null,
        ready_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_files_created_at on emulator_files (created_at desc);

      create table emulator_assistants (
        id text primary key,
        org_id text not null,
        data jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_assistants_created_at on emulator_assistants (created_at desc);

      create table emulator_tools (
        id text primary key,
        org_id text not null,
        data jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_tools_created_at on emulator_tools (created_at desc);

      create table emulator_knowledge_bases (
        id text primary key,
        org_id text not null,
        data jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );

      create table emulator_calls (
        id text primary key,
        org_id text not null,
        assistant_id text,
        status text not null,
        ended_reason text,
        data jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_calls_created_at on emulator_calls (created_at desc);
    `,
  },
  {
    // Seeded once: an operator may edit or delete them afterwards and they stay that way.
    id: 'emulator/0002_seed_assistants',
    sql: SEED_ASSISTANTS.map(
      (a) =>
        `insert into emulator_assistants (id, org_id, data, created_at, updated_at)
         values (${quote(a.id)}, ${quote(a.orgId)}, ${quote(JSON.stringify(a.data))}::jsonb, now(), now())
         on conflict (id) do nothing;`,
    ).join('\n'),
  },
  {
    // v2 knowledge bases: a base, its query tool (tool_id, created with it), and its files, each
    // 'indexing' until ready_at, then 'ready' or 'failed' (computed when read, as for files).
    id: 'emulator/0003_knowledge_bases_v2',
    sql: `
      create table emulator_knowledge_bases_v2 (
        id text primary key,
        org_id text not null,
        name text not null,
        description text,
        tool_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_knowledge_bases_v2_created_at on emulator_knowledge_bases_v2 (created_at desc);

      create table emulator_knowledge_base_v2_files (
        id text primary key,
        knowledge_base_id text not null references emulator_knowledge_bases_v2 (id) on delete cascade,
        file_id text not null,
        file_name text,
        mimetype text,
        bytes integer,
        index_ok boolean not null,
        ready_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (knowledge_base_id, file_id)
      );
    `,
  },
  {
    // Chats (POST /chat, /chat/web): a session keeps the conversation ({role, content} messages,
    // the last few dozen) and its assistant; each exchange is a chat. `channel` is the route that
    // started the session: 'web' (the public key's /chat/web) never continues an 'api' one.
    id: 'emulator/0004_chats',
    sql: `
      create table emulator_chat_sessions (
        id text primary key,
        org_id text not null,
        channel text not null,
        assistant_id text,
        assistant jsonb,
        variable_values jsonb,
        messages jsonb not null,
        status text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_chat_sessions_expires_at on emulator_chat_sessions (expires_at);

      create table emulator_chats (
        id text primary key,
        org_id text not null,
        session_id text not null references emulator_chat_sessions (id) on delete cascade,
        data jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_chats_session on emulator_chats (session_id);
    `,
  },
  {
    // The chat tables are kept to their newest rows (routes/chats.ts keepNewest): by creation time.
    id: 'emulator/0005_chats_by_age',
    sql: `
      create index emulator_chat_sessions_created_at on emulator_chat_sessions (created_at desc, id desc);
      create index emulator_chats_created_at on emulator_chats (created_at desc, id desc);
    `,
  },
  {
    // Files are processed when uploaded (knowledge/file-processing.ts): processed_at is null while
    // the extraction worker has not settled the file; then parse_ok says done or failed, with the
    // failure's reason, and passages hold what the local assistant reads. Files uploaded before
    // this are processed again (those that failed the content check stay failed).
    id: 'emulator/0006_file_processing',
    sql: `
      alter table emulator_files add column processed_at timestamptz;
      alter table emulator_files add column failure_reason text;
      alter table emulator_files add column passages jsonb;
      update emulator_files set processed_at = created_at, failure_reason = 'the content check failed'
        where not parse_ok;
      create index emulator_files_unprocessed on emulator_files (created_at) where processed_at is null;
    `,
  },
  {
    // Keys made through POST /token (routes/tokens.ts): found by the SHA-256 of their value.
    id: 'emulator/0007_tokens',
    sql: `
      create table emulator_tokens (
        id text primary key,
        org_id text not null,
        tag text not null,
        name text,
        value text not null,
        value_hash text not null unique,
        restrictions jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index emulator_tokens_created_at on emulator_tokens (created_at desc, id);
    `,
  },
  {
    // Each message is stored once, in the chat (exchange) that sent or answered it: a session's
    // history is its newest chats, no longer a copy in the session and another in every chat.
    // An inline assistant stays on its session alone.
    id: 'emulator/0008_chat_messages_once',
    sql: `
      alter table emulator_chat_sessions drop column messages;
      update emulator_chats set data = data - 'messages' - 'assistant';
      -- The order chats were stored in (created_at ties under one clock tick).
      alter table emulator_chats add column seq bigint generated always as identity;
      create index emulator_chats_session_seq on emulator_chats (session_id, seq desc);
    `,
  },
  {
    // Conversations (GET /call, /chat lists, retention): a call keeps its artifact messages (what the
    // room heard and said, in the provider's shape) and when it started and ended; a chat carries its
    // session's assistant so the lists filter on it without a join. Expired sessions are no longer
    // deleted with their chats: conversations go by EMULATOR_CONVERSATION_DAYS (conversations/retention.ts).
    id: 'emulator/0009_conversations',
    sql: `
      alter table emulator_calls add column started_at timestamptz;
      alter table emulator_calls add column ended_at timestamptz;
      alter table emulator_calls add column messages jsonb not null default '[]'::jsonb;
      create index emulator_calls_assistant on emulator_calls (assistant_id, created_at desc, id);

      alter table emulator_chats add column assistant_id text;
      update emulator_chats c set assistant_id = s.assistant_id
        from emulator_chat_sessions s where s.id = c.session_id;
      create index emulator_chats_assistant on emulator_chats (assistant_id, created_at desc, id desc);
      create index emulator_chat_sessions_updated_at on emulator_chat_sessions (updated_at);
    `,
  },
];
