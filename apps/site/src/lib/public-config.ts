import type { PublicConfig as ContractPublicConfig } from '@engage/http-contract';
import { createContext, useContext } from 'react';

/**
 * The browser's view of the server configuration (GET /config.json): public values only, in the
 * shape of the shared HTTP contract. `assistants` may be absent (the emulator's seeded ones then).
 */
export type PublicConfig = Omit<ContractPublicConfig, 'assistants'> &
  Partial<Pick<ContractPublicConfig, 'assistants'>>;

function isPublicConfig(value: unknown): value is PublicConfig {
  const v = value as PublicConfig | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.siteTitle === 'string' &&
    typeof v.ownerDomain === 'string' &&
    typeof v.auth === 'object' &&
    typeof v.provider === 'object'
  );
}

/** Loads /config.json once at start; throws a readable error when the server cannot be reached. */
export async function loadPublicConfig(fetchImpl: typeof fetch = fetch): Promise<PublicConfig> {
  let response: Response;
  try {
    response = await fetchImpl('/config.json', { headers: { Accept: 'application/json' } });
  } catch {
    throw new Error('No answer from the server for /config.json (offline, or the server is not running).');
  }
  if (!response.ok) throw new Error(`The server answered ${response.status} for /config.json.`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error('The server sent /config.json in a form this site does not understand.');
  }
  if (!isPublicConfig(body))
    throw new Error('The server sent a configuration this site does not understand.');
  return body;
}

/**
 * The configuration the server wrote into the page (`<script type="application/json"
 * id="engage-config">`, apps/server/src/routes/static-site.ts): no round trip before the first render.
 * Null in `npm run dev`, where Vite serves the page; main.tsx then fetches /config.json.
 */
export function readInjectedConfig(doc: Document = document): PublicConfig | null {
  const text = doc.getElementById('engage-config')?.textContent;
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isPublicConfig(value) ? value : null;
  } catch {
    return null;
  }
}

let current: PublicConfig | null = null;

/** Records the configuration the app started with, for code outside React (lib/supabase.ts). */
export function setCurrentPublicConfig(config: PublicConfig): void {
  current = config;
}

export function currentPublicConfig(): PublicConfig | null {
  return current;
}

export const PublicConfigContext = createContext<PublicConfig | null>(null);

/** The public configuration; only valid below <PublicConfigContext.Provider>. */
export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext);
  if (!config) throw new Error('usePublicConfig must be used inside the app providers');
  return config;
}
