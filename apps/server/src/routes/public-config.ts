import { Hono } from 'hono';
import type { Config } from '../config.js';

/**
 * What the browser may know. Built from an explicit allow-list of public values: nothing private
 * (service keys, the provider's private key, signing keys) can reach it by accident.
 */
export interface PublicConfig {
  siteTitle: string;
  ownerDomain: string;
  auth: {
    /** Base URL for supabase-js; null means this server (the embedded auth at /auth/v1). */
    url: string | null;
    anonKey: string | null;
    embedded: boolean;
  };
  provider: {
    name: string;
    /** Base URL of the provider's API as the browser should call it; null means this server's emulator. */
    baseUrl: string | null;
    publicKey: string | null;
    /** True when the server holds the private key: the import tool then calls /api/provider. */
    serverHoldsPrivateKey: boolean;
    embedded: boolean;
  };
  /** Provider assistant ids of the three landing pages (SPEC §3 registry). */
  assistants: { index: string; ediscovery: string; onboarding: string };
}

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
