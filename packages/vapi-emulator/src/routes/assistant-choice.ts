/**
 * What calls and chats share about the assistant a request runs: the stored one by id or an inline
 * (transient) one, bounded in size, with assistantOverrides (bounded too) and {{variables}} filled.
 * @module
 */
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { fail } from '../http.js';
import { jsonStore } from '../store.js';
import { assistantSchema } from './assistants.js';

export const objectSchema = z.record(z.string(), z.unknown());

/**
 * What a caller may pass as assistantOverrides.variableValues (free-form, so bounded): the one rule
 * of the product, for the embedded provider's calls and chats and for Engage's own WebSocket calls
 * (apps/server/src/provider/websocket-calls.ts), whichever provider is behind them.
 */
export const VARIABLE_VALUES_LIMITS = {
  maxKeys: 20,
  maxKeyLength: 64,
  maxValueLength: 1000,
  maxBytes: 16 * 1024,
} as const;

/**
 * An inline assistant, and assistantOverrides, at most this size as JSON: each is stored with the
 * call or chat session it runs, and the public key may send one.
 */
export const INLINE_ASSISTANT_MAX_BYTES = 64 * 1024;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const sizeMessage = (what: string) => `${what} may be at most ${INLINE_ASSISTANT_MAX_BYTES} bytes as JSON`;

export const inlineAssistantSchema = assistantSchema.refine(
  (a) => jsonBytes(a) <= INLINE_ASSISTANT_MAX_BYTES,
  sizeMessage('assistant'),
);

export const overridesSchema = objectSchema.superRefine((overrides, ctx) => {
  const values = overrides.variableValues;
  if (values === undefined) {
    if (jsonBytes(overrides) > INLINE_ASSISTANT_MAX_BYTES)
      ctx.addIssue({ code: 'custom', message: sizeMessage('assistantOverrides') });
    return;
  }
  const path = ['variableValues'];
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    return ctx.addIssue({ code: 'custom', path, message: 'variableValues must be an object' });
  const { maxKeys, maxKeyLength, maxValueLength, maxBytes } = VARIABLE_VALUES_LIMITS;
  const entries = Object.entries(values as Record<string, unknown>);
  if (entries.length > maxKeys)
    ctx.addIssue({ code: 'custom', path, message: `variableValues may have at most ${maxKeys} keys` });
  else if (entries.some(([key]) => key.length > maxKeyLength))
    ctx.addIssue({
      code: 'custom',
      path,
      message: `a variableValues key may be at most ${maxKeyLength} characters`,
    });
  else if (entries.some(([, value]) => typeof value === 'string' && value.length > maxValueLength))
    ctx.addIssue({
      code: 'custom',
      path,
      message: `a variableValues value may be at most ${maxValueLength} characters`,
    });
  else if (jsonBytes(values) > maxBytes)
    ctx.addIssue({
      code: 'custom',
      path,
      message: `variableValues may be at most ${maxBytes} bytes as JSON`,
    });
  else if (jsonBytes(overrides) > INLINE_ASSISTANT_MAX_BYTES)
    ctx.addIssue({ code: 'custom', message: sizeMessage('assistantOverrides') });
});

/** Replaces {{name}} with assistantOverrides.variableValues.name, as the provider does. */
export function fillVariables(text: unknown, values: Record<string, unknown> | undefined): unknown {
  if (typeof text !== 'string' || !values) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** The stored assistant's data by id, or 400 in the provider's words. */
export function storedAssistants(ctx: EmulatorContext) {
  const assistants = jsonStore(ctx, 'emulator_assistants', 'Assistant');
  return async (id: string): Promise<Record<string, unknown>> => {
    const stored = await assistants.find(id);
    if (!stored) fail(400, `Couldn't Get Assistant. \`assistantId\` ${id} Does Not Exist.`);
    return assistants.dataOf(stored);
  };
}
