/**
 * The provider's tokens (keys) made through POST /token, kept in emulator_tokens. A token's value
 * is found by its SHA-256, so looking a bearer key up never compares secrets in SQL.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../context.js';
import { iso, json } from '../db.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import type { KeyScope, TokenRestrictions } from './scope.js';

interface TokenRow {
  id: string;
  org_id: string;
  tag: 'private' | 'public';
  name: string | null;
  value: string;
  restrictions: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface TokenFields {
  tag?: 'private' | 'public' | undefined;
  name?: string | undefined;
  restrictions?: TokenRestrictions | undefined;
}

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/** The provider's Token. */
export function toToken(row: TokenRow) {
  const restrictions = json<TokenRestrictions | null>(row.restrictions);
  return {
    id: row.id,
    orgId: row.org_id,
    tag: row.tag,
    ...(row.name !== null ? { name: row.name } : {}),
    value: row.value,
    ...(restrictions ? { restrictions } : {}),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function tokenStore(ctx: Pick<EmulatorContext, 'db' | 'now' | 'newId'>) {
  const { db } = ctx;
  return {
    async create(fields: TokenFields) {
      const value = randomUUID();
      const { rows } = await db.query<TokenRow>(
        `insert into emulator_tokens (id, org_id, tag, name, value, value_hash, restrictions, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $8) returning *`,
        [
          ctx.newId(),
          EMULATOR_ORG_ID,
          fields.tag ?? 'private',
          fields.name ?? null,
          value,
          hashOf(value),
          fields.restrictions ? JSON.stringify(fields.restrictions) : null,
          ctx.now(),
        ],
      );
      return toToken(rows[0]!);
    },
    async list(limit: number) {
      const { rows } = await db.query<TokenRow>(
        'select * from emulator_tokens where org_id = $1 order by created_at desc, id limit $2',
        [EMULATOR_ORG_ID, limit],
      );
      return rows.map(toToken);
    },
    async find(id: string) {
      const { rows } = await db.query<TokenRow>(
        'select * from emulator_tokens where id = $1 and org_id = $2',
        [id, EMULATOR_ORG_ID],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    /** Replaces each field the update carries (restrictions whole, as the provider's PATCH does). */
    async update(id: string, fields: TokenFields) {
      const { rows } = await db.query<TokenRow>(
        `update emulator_tokens set
           tag = coalesce($3, tag),
           name = case when $4::boolean then $5 else name end,
           restrictions = case when $6::boolean then $7::jsonb else restrictions end,
           updated_at = $8
         where id = $1 and org_id = $2 returning *`,
        [
          id,
          EMULATOR_ORG_ID,
          fields.tag ?? null,
          fields.name !== undefined,
          fields.name ?? null,
          fields.restrictions !== undefined,
          fields.restrictions ? JSON.stringify(fields.restrictions) : null,
          ctx.now(),
        ],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    async remove(id: string) {
      const { rows } = await db.query<TokenRow>(
        'delete from emulator_tokens where id = $1 and org_id = $2 returning *',
        [id, EMULATOR_ORG_ID],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    /** The scope of a bearer key made through /token, or null when it is none (or is turned off). */
    async scopeOf(value: string): Promise<KeyScope | null> {
      const { rows } = await db.query<TokenRow>('select * from emulator_tokens where value_hash = $1', [
        hashOf(value),
      ]);
      const row = rows[0];
      const restrictions = row ? (json<TokenRestrictions | null>(row.restrictions) ?? {}) : null;
      if (!row || !restrictions || restrictions.enabled === false) return null;
      return row.tag === 'private' ? { tag: 'private' } : { tag: 'public', restrictions };
    },
  };
}
