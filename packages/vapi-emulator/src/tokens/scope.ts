/**
 * What a key may do, as the provider's tokens say it: a private key does everything; a public key
 * only POST /call/web and /chat/web, within its `restrictions` (TokenRestrictions): which stored
 * assistants, whether transient (inline) assistants, from which origins. Pure rules plus the
 * request's scope, set once by the key check (auth.ts) and read by the two public routes.
 * @module
 */
import type { Context } from 'hono';
import { fail } from '../http.js';

/** The provider's TokenRestrictions. */
export interface TokenRestrictions {
  /** False turns the key off (default true). */
  enabled?: boolean;
  /** The `Origin` header must be one of these (default: any origin). */
  allowedOrigins?: string[];
  /** Only these stored assistants (default: any); when set, transient assistants are refused. */
  allowedAssistantIds?: string[];
  /** Whether an inline assistant may be used (default true, false when allowedAssistantIds is set). */
  allowTransientAssistant?: boolean;
}

/** The key a request carries: private, or public with its restrictions. */
export type KeyScope = { tag: 'private' } | { tag: 'public'; restrictions: TokenRestrictions };

const scopes = new WeakMap<Request, KeyScope>();

export function setKeyScope(c: Context, scope: KeyScope): void {
  scopes.set(c.req.raw, scope);
}

/** The request's key scope; a request the key check did not see is treated as the private key's. */
export function keyScopeOf(c: Context): KeyScope {
  return scopes.get(c.req.raw) ?? { tag: 'private' };
}

/**
 * What a public route is about to run: a stored assistant by id, or an inline one; with the
 * caller's assistantOverrides, whose `model` (the tools and documents it reads) is an assistant
 * of the caller's making too.
 */
export type AssistantChoice = ({ assistantId: string } | { transient: true }) & {
  overrides?: Record<string, unknown> | undefined;
};

/** The reason a public key may not run this assistant from this origin, or null when it may. */
export function restrictionProblem(
  restrictions: TokenRestrictions,
  choice: AssistantChoice,
  origin: string | undefined,
): string | null {
  const { allowedOrigins, allowedAssistantIds } = restrictions;
  if (allowedOrigins && !(origin && allowedOrigins.includes(origin)))
    return `This key may not be used from ${origin ? `the origin ${origin}` : 'a request without an Origin'}.`;
  if ('assistantId' in choice) {
    if (allowedAssistantIds && !allowedAssistantIds.includes(choice.assistantId))
      return `This key may not use the assistant ${choice.assistantId}.`;
  }
  const transient = allowedAssistantIds ? false : (restrictions.allowTransientAssistant ?? true);
  if (transient) return null;
  if ('transient' in choice)
    return 'This key may not use a transient assistant: use an assistantId it allows.';
  if (choice.overrides?.model !== undefined)
    return "This key may not override the assistant's model (its tools and documents): leave out assistantOverrides.model.";
  return null;
}

/** 403 in the provider's shape unless the request's key may run this assistant. */
export function enforceKeyScope(c: Context, choice: AssistantChoice): void {
  const scope = keyScopeOf(c);
  if (scope.tag === 'private') return;
  const problem = restrictionProblem(scope.restrictions, choice, c.req.header('origin'));
  if (problem) fail(403, problem);
}
