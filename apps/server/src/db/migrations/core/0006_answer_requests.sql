-- A visitor's address left for the owner's answer to a question the assistant could not answer:
-- one row per address and question (so an address gets at most one answer mail per question),
-- kept with its conversation (`conversation_id`: the chat turn or call it was left in) until
-- `expires_at`, and deleted with it.
create table if not exists answer_requests (
  id uuid primary key default gen_random_uuid(),
  conversation_id text not null,
  assistant_id text not null,
  question text not null,
  question_key text not null,
  email text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- The owner's answer as saved (what is mailed, and mailed again after a failed send).
  answer text,
  answered_at timestamptz,
  -- A send in progress (so two instances never send the same mail), and how it ended.
  sending_at timestamptz,
  sent_at timestamptz,
  send_error text
);
-- An address is one address whatever its case.
create unique index if not exists answer_requests_question_email_idx
  on answer_requests (assistant_id, question_key, lower(email));
create index if not exists answer_requests_conversation_idx on answer_requests (conversation_id);
create index if not exists answer_requests_expires_idx on answer_requests (expires_at);

-- Who has seen which visitor's address: each operator's first sight of one is audited once.
create table if not exists answer_request_reads (
  request_id uuid not null references answer_requests (id) on delete cascade,
  reader_id text not null,
  primary key (request_id, reader_id)
);
