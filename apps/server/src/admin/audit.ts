import type { Queryable } from '@engage/db';
import type { AuditAction } from '@engage/http-contract';

// The actions are the HTTP contract's (the dashboard's audit list reads the same names).
export type { AuditAction };

export interface AuditEntry {
  id: number;
  actor_id: string;
  actor_email: string;
  action: AuditAction;
  target_id: string | null;
  target_email: string | null;
  /**
   * What changed, where the action alone does not say: the new role of 'user.role', the duration
   * of 'user.ban', the filter of 'user.export'.
   */
  detail: string | null;
  created_at: string;
}

export interface AuditLog {
  /** Records one entry per target (one for an action without a target). */
  record(
    actor: { id: string; email: string },
    action: AuditAction,
    targets: readonly { id: string; email: string }[],
    detail?: string,
  ): Promise<void>;
  /** The most recent entries, newest first; `before` continues after an entry id. */
  recent(options: { limit: number; before?: number }): Promise<AuditEntry[]>;
}

/** The admin_audit_log table. It lives in the server's database whichever auth stores the users. */
export function createAuditLog(db: Queryable): AuditLog {
  return {
    async record(actor, action, targets, detail) {
      const list = targets.length ? targets : [null];
      await db.query(
        `insert into admin_audit_log (actor_id, actor_email, action, target_id, target_email, detail)
         select $1::uuid, $2, $3, t.id, t.email, $6
           from unnest($4::uuid[], $5::text[]) as t(id, email)`,
        [
          actor.id,
          actor.email,
          action,
          list.map((t) => t?.id ?? null),
          list.map((t) => t?.email ?? null),
          detail ?? null,
        ],
      );
    },
    async recent({ limit, before }) {
      const { rows } = await db.query<Omit<AuditEntry, 'created_at'> & { created_at: Date | string }>(
        `select id::int as id, actor_id, actor_email, action, target_id, target_email, detail, created_at
           from admin_audit_log
          where $1::bigint is null or id < $1::bigint
          order by id desc
          limit $2`,
        [before ?? null, limit],
      );
      return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
    },
  };
}
