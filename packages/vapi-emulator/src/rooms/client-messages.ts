import { z } from 'zod';

/**
 * The JSON control and app messages a caller may send a room (the provider's client inbound
 * messages); unknown types are answered with an error message. A typed `add-message` is at most
 * 2000 characters.
 */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hangup') }),
  z.object({ type: z.literal('end-call') }),
  z.object({
    type: z.literal('say'),
    message: z.string().trim().min(1).max(500),
    endCallAfterSpoken: z.boolean().optional(),
    interruptionsEnabled: z.boolean().optional(),
    interruptAssistantEnabled: z.boolean().optional(),
  }),
  z
    .object({
      type: z.literal('add-message'),
      message: z.looseObject({
        role: z.enum(['user', 'assistant', 'system']),
        content: z.string().trim().min(1).max(2000),
      }),
      triggerResponseEnabled: z.boolean().optional(),
    })
    .loose(),
  z.object({ type: z.literal('control'), control: z.string() }).loose(),
  z.object({ type: z.literal('playable') }).loose(),
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** A text frame as a client message, or the sentence that tells the caller what is wrong with it. */
export function parseClientMessage(
  text: string,
): { ok: true; message: ClientMessage } | { ok: false; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'Text frames must be JSON objects.' };
  }
  const result = clientMessageSchema.safeParse(parsed);
  if (result.success) return { ok: true, message: result.data };
  const type = typeof parsed === 'object' && parsed && 'type' in parsed ? String(parsed.type) : undefined;
  return {
    ok: false,
    problem: type
      ? `Unsupported or malformed message of type "${type}": ${result.error.issues[0]?.message ?? 'invalid'}.`
      : 'A message needs a string "type".',
  };
}
