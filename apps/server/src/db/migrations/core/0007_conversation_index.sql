-- What the trends on /conversations count, read from the provider and kept here so that the figures
-- come from one query: one row per call or chat turn (`id`: 'call:…' or 'chat:…'), the
-- conversation it belongs to (a call, or a chat session), its assistant, when it started, and
-- whether the assistant could not answer something in it. No words of the conversation are kept.
create table if not exists conversation_index (
  id text primary key,
  kind text not null check (kind in ('call', 'chat')),
  conversation_key text not null,
  assistant_id text,
  started_at timestamptz not null,
  unanswered boolean not null
);
create index if not exists conversation_index_started_idx on conversation_index (started_at);
