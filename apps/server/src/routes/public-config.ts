import type { PublicConfig } from '@engage/http-contract';
import { Hono } from 'hono';
import type { Config } from '../config.js';

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
    assistants: {
      index: config.ASSISTANT_ID_INDEX,
      ediscovery: config.ASSISTANT_ID_EDISCOVERY,
      onboarding: config.ASSISTANT_ID_ONBOARDING,
    },
  };
}

export function publicConfigRoute(publicConfig: () => PublicConfig): Hono {
  return new Hono().get('/config.json', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.json(publicConfig());
  });
}
