/**
 * GET /config.json (and the page's injected `engage-config`): what the browser may know. The
 * server builds it from an explicit allow-list, so nothing private can reach it by accident.
 */
import { z } from 'zod';

export const publicConfigSchema = z.object({
  siteTitle: z.string(),
  ownerDomain: z.string(),
  auth: z.object({
    /** Base URL for supabase-js; null means this server (the embedded auth at /auth/v1). */
    url: z.string().nullable(),
    anonKey: z.string().nullable(),
    embedded: z.boolean(),
  }),
  provider: z.object({
    name: z.string(),
    /** Base URL of the provider's API as the browser should call it; null means this server's emulator. */
    baseUrl: z.string().nullable(),
    /** The public key of the public pages: restricted by the provider to their assistant. */
    publicKey: z.string().nullable(),
    /**
     * The public key of the sign-in-only pages (restricted to their assistants): present only in an
     * answer to a request with a valid session, never in the page or an anonymous /config.json.
     */
    membersPublicKey: z.string().nullable().optional(),
    /** True when the server holds the private key: the import tool then calls /api/provider. */
    serverHoldsPrivateKey: z.boolean(),
    embedded: z.boolean(),
  }),
  /**
   * The conversations page's settings: the phrases that mark a reply as "could not answer"
   * (UNANSWERED_PHRASES), present only when the owner configured them (else the built-in list).
   */
  conversations: z.object({ unansweredPhrases: z.array(z.string().max(200)).max(50) }).optional(),
  /**
   * Answers by mail: when the assistant cannot answer, the widget offers to have the owner answer
   * by mail (POST /api/answer-requests); the address is kept `keepDays`, with the conversation.
   */
  answerByMail: z.object({ keepDays: z.number().int().min(1).max(3650) }).optional(),
  /** Provider assistant ids of the three landing pages. */
  assistants: z.object({ index: z.string(), ediscovery: z.string(), onboarding: z.string() }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
