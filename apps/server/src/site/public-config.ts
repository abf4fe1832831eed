import type { PublicConfig } from '@engage/http-contract';
import { Hono } from 'hono';
import { bearerToken } from '../platform/bearer-token.js';
import { answersByMailOffered, visitorAddressDays, type Config } from '../platform/config.js';
import { isMember, type VerifyAccessToken } from '../platform/http/require-auth.js';

// What the browser may know (GET /config.json): the shape is the HTTP contract's, shared with the
// site; buildPublicConfig fills it from an explicit allow-list of public values.
export type { PublicConfig };

export interface PublicConfigValues {
  authAnonKey?: string | null;
  providerPublicKey?: string | null;
}

export function buildPublicConfig(config: Config, values: PublicConfigValues = {}): PublicConfig {
  return {
    siteTitle: config.siteTitle,
    ownerDomain: config.ownerDomain,
    auth: {
      url: config.SUPABASE_URL ?? null,
      anonKey: config.SUPABASE_ANON_KEY ?? values.authAnonKey ?? null,
      embedded: config.embeddedAuth,
    },
    provider: {
      name: 'Vapi',
      baseUrl: config.embeddedProvider ? null : config.VAPI_API_URL,
      publicKey: config.VAPI_PUBLIC_KEY ?? values.providerPublicKey ?? null,
      serverHoldsPrivateKey: true,
      embedded: config.embeddedProvider,
    },
    ...(config.UNANSWERED_PHRASES ? { conversations: { unansweredPhrases: config.UNANSWERED_PHRASES } } : {}),
    ...(answersByMailOffered(config) && { answerByMail: { keepDays: visitorAddressDays(config) } }),
    assistants: {
      index: config.ASSISTANT_ID_INDEX,
      ediscovery: config.ASSISTANT_ID_EDISCOVERY,
      onboarding: config.ASSISTANT_ID_ONBOARDING,
    },
  };
}

export interface MembersConfig {
  verify: VerifyAccessToken;
  /** The provider's public key for the sign-in-only pages' assistants. */
  membersPublicKey: string | null;
}

/**
 * GET /config.json: the public values for everyone; with a valid session (Authorization: Bearer
 * <access token>) of a member also the members' public key, which the sign-in-only pages' widget
 * uses. An invalid or expired token, or an anonymous user's, gets the visitors' answer, as no token
 * does.
 */
export function publicConfigRoute(publicConfig: () => PublicConfig, members?: MembersConfig): Hono {
  return new Hono().get('/config.json', async (c) => {
    c.header('Vary', 'Authorization');
    const token = members && bearerToken(c);
    if (members && token && isMember(await members.verify(token))) {
      c.header('Cache-Control', 'private, no-store');
      const config = publicConfig();
      return c.json({
        ...config,
        provider: { ...config.provider, membersPublicKey: members.membersPublicKey },
      });
    }
    c.header('Cache-Control', 'no-cache');
    return c.json(publicConfig());
  });
}
