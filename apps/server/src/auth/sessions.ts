import type { Queryable } from '@engage/db';
import { AuthError } from './errors.js';
import { newRefreshToken, type AmrEntry } from './tokens.js';

export interface SessionRow {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2';
  amr: AmrEntry[];
  created_at: Date;
}

interface RefreshRow {
  id: number;
  token: string;
  user_id: string;
  session_id: string;
  parent: string | null;
  revoked: boolean;
  updated_at: Date;
}

export interface NewSession {
  session: SessionRow;
  refreshToken: string;
}

export async function createSession(
  db: Queryable,
  userId: string,
  opts: { aal?: 'aal1' | 'aal2'; amr: AmrEntry[]; ip?: string; userAgent?: string },
): Promise<NewSession> {
  const { rows } = await db.query<SessionRow>(
    `insert into auth_sessions (user_id, aal, amr, ip, user_agent) values ($1, $2, $3::jsonb, $4, $5)
     returning id, user_id, aal, amr, created_at`,
    [userId, opts.aal ?? 'aal1', JSON.stringify(opts.amr), opts.ip ?? null, opts.userAgent ?? null],
  );
  const session = rows[0] as SessionRow;
  const refreshToken = await insertRefreshToken(db, session, null);
  return { session, refreshToken };
}

async function insertRefreshToken(
  db: Queryable,
  session: { id: string; user_id: string },
  parent: string | null,
) {
  const token = newRefreshToken();
  await db.query(
    'insert into auth_refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)',
    [token, session.user_id, session.id, parent],
  );
  return token;
}

export async function findSession(db: Queryable, id: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    'select id, user_id, aal, amr, created_at from auth_sessions where id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export type RotationResult = { session: SessionRow; refreshToken: string } | { revokeSession: string };

/**
 * GoTrue's v1 refresh-token rotation, run inside a transaction:
 * - active token → revoke it and issue a child;
 * - revoked token that is the parent of the session's active token → that active token again;
 * - revoked token within `reuseIntervalMs` of its revocation → a new child (concurrent refreshes);
 * - otherwise → `{ revokeSession }`: the caller deletes the session (the whole token family).
 */
export async function rotateRefreshToken(
  tx: Queryable,
  presented: string,
  reuseIntervalMs: number,
  now: Date,
): Promise<RotationResult> {
  const { rows } = await tx.query<RefreshRow>(
    'select id, token, user_id, session_id, parent, revoked, updated_at from auth_refresh_tokens where token = $1 for update',
    [presented],
  );
  const row = rows[0];
  if (!row)
    throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  const session = await findSession(tx, row.session_id);
  if (!session) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: Session Not Found');

  if (!row.revoked) {
    await tx.query('update auth_refresh_tokens set revoked = true, updated_at = $2 where id = $1', [
      row.id,
      now,
    ]);
    const refreshToken = await insertRefreshToken(tx, session, row.token);
    await touch(tx, session.id, now);
    return { session, refreshToken };
  }
  const active = await tx.query<{ token: string }>(
    'select token from auth_refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1',
    [session.id],
  );
  const activeToken = active.rows[0]?.token;
  if (activeToken) {
    const child = await tx.query<{ parent: string | null }>(
      'select parent from auth_refresh_tokens where token = $1',
      [activeToken],
    );
    if (child.rows[0]?.parent === row.token) return { session, refreshToken: activeToken };
  }
  if (now.getTime() - new Date(row.updated_at).getTime() <= reuseIntervalMs) {
    const refreshToken = await insertRefreshToken(tx, session, row.token);
    await touch(tx, session.id, now);
    return { session, refreshToken };
  }
  // Reuse of an old token: someone may hold a stolen copy. The caller ends the session and its whole
  // family after this transaction commits, then answers 400 `refresh_token_already_used`.
  return { revokeSession: session.id };
}

export const refreshTokenReused = () =>
  new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');

const touch = (tx: Queryable, sessionId: string, now: Date) =>
  tx.query('update auth_sessions set refreshed_at = $2, updated_at = $2 where id = $1', [sessionId, now]);

export type LogoutScope = 'global' | 'local' | 'others';

/** Deletes sessions (and, by cascade, their refresh tokens) for a logout of the given scope. */
export async function endSessions(db: Queryable, userId: string, sessionId: string, scope: LogoutScope) {
  if (scope === 'global') await db.query('delete from auth_sessions where user_id = $1', [userId]);
  else if (scope === 'local') await db.query('delete from auth_sessions where id = $1', [sessionId]);
  else await db.query('delete from auth_sessions where user_id = $1 and id <> $2', [userId, sessionId]);
}
