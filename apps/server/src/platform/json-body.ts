import type { Context } from 'hono';
import type { z } from 'zod';

/**
 * The one way Engage's own API (`/api/*`) reads a JSON body, and its one error shape
 * `{ error, message, field? }`:
 * - a body that is not JSON: 400 `invalid_json`;
 * - JSON of the wrong shape: 400 `validation_failed`, the first problem's message (written for the
 *   person who will read it) and, when it is about one field, that field's path.
 * A query string is read the same way (`readQuery`), with the same `validation_failed` answer.
 * The size limit is the server's one `MAX_JSON_BYTES`, enforced before any route reads the body.
 * GoTrue's routes and the provider emulator keep the error shapes of the services they stand for.
 */
export type JsonBody<T> = { ok: true; data: T } | { ok: false; response: Response };

export const invalidJson = (c: Context): Response =>
  c.json({ error: 'invalid_json', message: 'The request body must be JSON.' }, 400);

/** The first problem of a failed parse, in the API's one shape. */
export function validationFailed(c: Context, error: z.ZodError): Response {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : undefined;
  return c.json(
    {
      error: 'validation_failed',
      message: issue?.message ?? 'The request is not valid.',
      ...(field ? { field } : {}),
    },
    400,
  );
}

/** Reads the request's body as JSON and checks it against `schema`. */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<JsonBody<z.infer<S>>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return { ok: false, response: invalidJson(c) };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, response: validationFailed(c, parsed.error) };
}

/** Reads the request's query string and checks it against `schema`: the same answers as a body. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): JsonBody<z.infer<S>> {
  const parsed = schema.safeParse(c.req.query());
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, response: validationFailed(c, parsed.error) };
}
