-- Questions an operator dismissed from the Unanswered tab (small talk: "hi", "thanks"): kept per
-- assistant by their normalised text, so the same question asked again later stays dismissed.
create table if not exists dismissed_questions (
  assistant_id text not null,
  question_key text not null,
  dismissed_by text not null,
  dismissed_at timestamptz not null default now(),
  primary key (assistant_id, question_key)
);
