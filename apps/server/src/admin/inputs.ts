import { USER_SEARCH_MAX_LENGTH, userStatusSchema } from '@engage/http-contract';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AuthEnv } from '../platform/http/require-auth.js';
import type { ListCursor } from './types.js';

/**
 * What /api/admin accepts (./admin.ts): the query and body schemas with their sentences, the opaque
 * page cursor, and the 400 answer every route gives a bad input.
 * @module
 */

export const uuid = z.uuid({ message: 'Each user id must be a UUID.' });

// A cursor is [created_at as PostgreSQL text or ISO, id] in base64url JSON: opaque to callers.
const cursorSchema = z.tuple([
  z
    .string()
    .max(40)
    .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/),
  uuid,
]);

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

export function decodeCursor(value: string): ListCursor | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? { createdAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

export const listQuery = z.object({
  search: z
    .string()
    .max(USER_SEARCH_MAX_LENGTH, `The search is at most ${USER_SEARCH_MAX_LENGTH} characters.`)
    .optional(),
  status: userStatusSchema.default('all'),
  limit: z.coerce
    .number({ message: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit is at least 1.')
    .max(200, 'limit is at most 200.')
    .default(50),
  cursor: z.string().max(200).optional(),
});

export const statsQuery = z.object({
  days: z.coerce
    .number({ message: 'days must be a number.' })
    .int('days must be a whole number.')
    .min(1, 'days is at least 1.')
    .max(366, 'days is at most 366.')
    .default(30),
});

/** A missing or mistyped field is told as the form's one message. */
const MISSING_FIELDS = 'Please provide both email and password';
export const createBody = z.object(
  {
    email: z.string({ error: MISSING_FIELDS }).trim().optional(),
    password: z.string({ error: MISSING_FIELDS }).optional(),
  },
  { error: MISSING_FIELDS },
);

export const verifyBody = z.object({
  ids: z.array(uuid).min(1, 'Select at least one user.').max(1000, 'At most 1000 users at a time.'),
});

export const exportQuery = listQuery.pick({ search: true, status: true });

export const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().positive().optional(),
});

export type Ctx = Context<AuthEnv>;

export const badRequest = (c: Ctx, message: string) => c.json({ error: 'validation_failed', message }, 400);

/** The `:id` of a user route, which must be a UUID. */
export const userId = (c: Ctx) => uuid.safeParse(c.req.param('id'));

/** The first zod issue as a sentence for the caller. */
export const firstIssue = (error: z.ZodError) => error.issues[0]?.message ?? 'The request is not valid.';

/** The message for a create form missing a field. */
export const MISSING_FIELDS_MESSAGE = 'Please provide both email and password';
