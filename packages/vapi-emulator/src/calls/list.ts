/**
 * GET /call's query as the document describes it: by id, assistant or phone number, created-at and
 * updated-at ranges, newest first, at most `limit` (0–1000, default 100). The provider pages calls
 * by range: the next page is `createdAtLt` the oldest call's createdAt.
 * @module
 */
import { z } from 'zod';
import { dateRangeShape, idParam, limitParam, Where } from '../conversations/query.js';
import type { EmulatorQueryable } from '../db.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import type { CallRow } from './store.js';

export const callListSchema = z.strictObject({
  id: idParam.optional(),
  assistantId: idParam.optional(),
  phoneNumberId: idParam.optional(),
  limit: limitParam,
  ...dateRangeShape,
});

export type CallListQuery = z.infer<typeof callListSchema>;

export async function listCalls(db: EmulatorQueryable, q: CallListQuery): Promise<CallRow[]> {
  const where = new Where();
  where.add(`org_id = ${where.param(EMULATOR_ORG_ID)}`);
  if (q.id) where.add(`id = ${where.param(q.id)}`);
  if (q.assistantId) where.add(`assistant_id = ${where.param(q.assistantId)}`);
  // The embedded provider places no phone calls: none was made with any number.
  if (q.phoneNumberId) where.add('false');
  where.dateRanges(q, { createdAt: 'created_at', updatedAt: 'updated_at' });
  const { rows } = await db.query<CallRow>(
    `select * from emulator_calls ${where.sql} order by created_at desc, id desc limit ${where.param(q.limit)}`,
    where.params,
  );
  return rows;
}
