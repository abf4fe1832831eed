// Per-account cap on guessing an emailed six-digit code: every {email, token}
// attempt is counted on each pending token of that user (before the code is checked, so concurrent
// guesses cannot slip past), and a token tried more than 5 times is burnt: even the right code then
// fails and a new mail must be requested. Counted per token, so a new mail starts afresh. The count
// lives in the limit store: PostgreSQL with DATABASE_URL, so it holds across instances.
import type { AuthCore } from './core.js';
import type { TokenSlot } from './link-tokens.js';

export async function countCodeGuess(core: AuthCore, email: string, slots: readonly TokenSlot[]) {
  // One query whether or not the address has an account (the same work: no enumeration by timing).
  const { rows } = await core.db.query<{ id: string }>(
    `select t.id from auth_one_time_tokens t join auth_users u on u.id = t.user_id
     where lower(u.email) = lower($1) and t.token_type = any($2::text[])`,
    [email, [...slots]],
  );
  for (const { id } of rows) {
    if ((await core.limiters.emailCodeGuesses.take(id)).allowed) continue;
    await core.db.query('delete from auth_one_time_tokens where id = $1', [id]);
  }
}
