import type { Context } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from './context.js';
import { iso, json } from './db.js';
import { fail, jsonBody, parseWith } from './http.js';
import { EMULATOR_ORG_ID } from './seed.js';

type Table = 'emulator_assistants' | 'emulator_tools' | 'emulator_knowledge_bases';

interface Row {
  id: string;
  org_id: string;
  data: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

export type Resource = Record<string, unknown> & {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
};

const date = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });
/** The list parameters the provider's list routes share. */
const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(0).max(1000).default(100),
  createdAtGt: date.optional(),
  createdAtLt: date.optional(),
  createdAtGe: date.optional(),
  createdAtLe: date.optional(),
  updatedAtGt: date.optional(),
  updatedAtLt: date.optional(),
  updatedAtGe: date.optional(),
  updatedAtLe: date.optional(),
});

const OPERATORS = { Gt: '>', Lt: '<', Ge: '>=', Le: '<=' } as const;

/** Fields the server owns: a body may not set them. */
export const SERVER_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'] as const;

/** JSON resources kept whole in a jsonb column, with the provider's list filters. */
export function jsonStore(ctx: EmulatorContext, table: Table, noun: string) {
  const { db } = ctx;
  const toResource = (row: Row): Resource => ({
    id: row.id,
    orgId: row.org_id,
    ...json<Record<string, unknown>>(row.data),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
  const strip = (data: Record<string, unknown>) => {
    const out = { ...data };
    for (const f of SERVER_FIELDS) delete out[f];
    return out;
  };

  return {
    async list(query: Record<string, string>): Promise<Resource[]> {
      const q = parseWith(listQuery, query);
      const where: string[] = [];
      const params: unknown[] = [];
      for (const column of ['createdAt', 'updatedAt'] as const) {
        for (const [suffix, op] of Object.entries(OPERATORS)) {
          const value = q[`${column}${suffix}` as keyof typeof q];
          if (typeof value !== 'string') continue;
          params.push(new Date(value));
          where.push(`${column === 'createdAt' ? 'created_at' : 'updated_at'} ${op} $${params.length}`);
        }
      }
      params.push(q.limit);
      const { rows } = await db.query<Row>(
        `select * from ${table} ${where.length ? `where ${where.join(' and ')}` : ''}
         order by created_at desc, id limit $${params.length}`,
        params,
      );
      return rows.map(toResource);
    },
    async find(id: string): Promise<Resource | null> {
      const { rows } = await db.query<Row>(`select * from ${table} where id = $1`, [id]);
      return rows[0] ? toResource(rows[0]) : null;
    },
    async get(id: string): Promise<Resource> {
      return (await this.find(id)) ?? fail(404, `${noun} ${id} not found`);
    },
    async existing(ids: readonly string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const { rows } = await db.query<{ id: string }>(`select id from ${table} where id = any($1::text[])`, [
        [...ids],
      ]);
      return new Set(rows.map((r) => r.id));
    },
    async create(data: Record<string, unknown>): Promise<Resource> {
      const now = ctx.now();
      const { rows } = await db.query<Row>(
        `insert into ${table} (id, org_id, data, created_at, updated_at) values ($1, $2, $3::jsonb, $4, $4) returning *`,
        [ctx.newId(), EMULATOR_ORG_ID, JSON.stringify(strip(data)), now],
      );
      return toResource(rows[0]!);
    },
    async replace(id: string, data: Record<string, unknown>): Promise<Resource> {
      const { rows } = await db.query<Row>(
        `update ${table} set data = $2::jsonb, updated_at = $3 where id = $1 returning *`,
        [id, JSON.stringify(strip(data)), ctx.now()],
      );
      return rows[0] ? toResource(rows[0]) : fail(404, `${noun} ${id} not found`);
    },
    async remove(id: string): Promise<Resource> {
      const { rows } = await db.query<Row>(`delete from ${table} where id = $1 returning *`, [id]);
      return rows[0] ? toResource(rows[0]) : fail(404, `${noun} ${id} not found`);
    },
    /** The stored data without the server's fields, for merging a PATCH. */
    dataOf: (resource: Resource) => strip(resource),
  };
}

/** A body may not carry id, orgId, createdAt or updatedAt: the provider rejects them too. */
export function rejectServerFields(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const bad = SERVER_FIELDS.filter((f) => f in body);
  if (bad.length)
    fail(
      400,
      bad.map((f) => `property ${f} should not exist`),
    );
}

/** A resource's JSON body: an object without the server's fields, else 400. */
export async function resourceBody(c: Context): Promise<Record<string, unknown>> {
  const value = await jsonBody(c);
  rejectServerFields(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(400, 'The body must be a JSON object.');
  return value as Record<string, unknown>;
}
