import type { PublicConfig as ContractPublicConfig } from '@engage/http-contract';

// Where the browser gets the public configuration, without React: the static pages' islands
// (src/app/islands/main.ts) read it too. lib/public-config.ts gives it to the app's components.

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
 * id="engage-config">`, apps/server/src/site/page-fill.ts): no round trip before the first render.
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
