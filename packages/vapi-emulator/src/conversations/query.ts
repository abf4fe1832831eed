/**
 * The list filters GET /call and GET /chat share, as the provider's document names them: ids, the
 * created-at and updated-at ranges (ISO 8601 date-times), and a SQL `where` built from them with
 * every value a parameter and every column a literal of this module.
 * @module
 */
import { z } from 'zod';

/** Longest id the lists accept (the emulator's are UUIDs; the seeded assistants' are short names). */
const MAX_ID = 128;
/** Most ids a comma-separated `…Any` filter may list. */
export const MAX_ANY_IDS = 100;

export const idParam = z.string().trim().min(1, 'must not be empty').max(MAX_ID);

/** "a,b,c": ids separated by commas, each a well-formed id. */
export const idListParam = z
  .string()
  .max(MAX_ANY_IDS * (MAX_ID + 1))
  .transform((v) =>
    v
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  )
  .pipe(z.array(idParam).min(1, 'must list at least one id').max(MAX_ANY_IDS));

/** An ISO 8601 date-time with a zone ('2026-11-24T09:00:00Z', '…+01:00'): the document's `date-time`. */
export const dateTimeParam = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2026-11-24T09:00:00Z' })
  .transform((v) => new Date(v))
  .refine((d) => !Number.isNaN(d.getTime()), 'must be a real date');

/** 0–1000 items, default 100, as the document bounds `limit`. */
export const limitParam = z.coerce
  .number({ message: 'limit must be a number' })
  .int('limit must be a whole number')
  .min(0, 'limit must not be less than 0')
  .max(1000, 'limit must not be greater than 1000')
  .default(100);

const RANGE_OPS = { Gt: '>', Lt: '<', Ge: '>=', Le: '<=' } as const;
type RangeField = `${'createdAt' | 'updatedAt'}${keyof typeof RANGE_OPS}`;

/** createdAtGt … updatedAtLe, each optional. */
export const dateRangeShape = Object.fromEntries(
  (['createdAt', 'updatedAt'] as const).flatMap((field) =>
    Object.keys(RANGE_OPS).map((op) => [`${field}${op}`, dateTimeParam.optional()]),
  ),
) as Record<RangeField, z.ZodOptional<typeof dateTimeParam>>;

export type DateRanges = Partial<Record<RangeField, Date>>;

/** A `where` clause under construction: values become $n parameters, never SQL text. */
export class Where {
  readonly params: unknown[] = [];
  readonly #clauses: string[] = [];

  /** `$n` for a value. */
  param(value: unknown): string {
    return `$${this.params.push(value)}`;
  }

  /** Adds a condition written by `clause` (given the value's `$n`). */
  add(clause: string): this {
    this.#clauses.push(clause);
    return this;
  }

  /** The created-at and updated-at ranges asked for, on the table's two columns. */
  dateRanges(q: DateRanges, columns: { createdAt: string; updatedAt: string }): this {
    for (const [name, value] of Object.entries(q) as [RangeField, Date | undefined][]) {
      if (!(value instanceof Date)) continue;
      const field = name.slice(0, -2) as 'createdAt' | 'updatedAt';
      const op = RANGE_OPS[name.slice(-2) as keyof typeof RANGE_OPS];
      this.add(`${columns[field]} ${op} ${this.param(value)}`);
    }
    return this;
  }

  get sql(): string {
    return this.#clauses.length ? `where ${this.#clauses.join(' and ')}` : '';
  }
}
