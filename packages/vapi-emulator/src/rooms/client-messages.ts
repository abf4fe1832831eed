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
