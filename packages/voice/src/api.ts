/**
 * The voice SDK's seam to `@engage/vapi-client`. The SDK makes one REST call, POST /call/web; the
 * client that makes it (openapi-fetch and the transport) is loaded on the first start, as the room
 * adapters are, so the SDK a page loads before a call stays small. The errors and the abortable
 * `sleep` are small and imported as they are.
 * @module
 */
import type { CreateWebCallDTO, VapiClientOptions, WebCall } from '@engage/vapi-client';

// Subpaths, not the package root: the root is what the first start loads, and a module imported
// both ways would be bundled with the page.
export { isVapiApiError, VapiApiError, VapiNetworkError } from '@engage/vapi-client/errors';
export { sleep } from '@engage/vapi-client/sleep';
export type { CreateAssistantDTO, CreateWebCallDTO, JsonObject, WebCall } from '@engage/vapi-client';

/** POST /call/web with the instance's key, resolving with the call to join. */
export type WebCallCreator = (body: CreateWebCallDTO, init: { signal: AbortSignal }) => Promise<WebCall>;

/**
 * A failed load (the network dropped while the chunk came) is not kept: the next start loads again,
 * instead of every later call failing with the first one's error. `load` is for tests.
 */
export function webCallCreator(options: VapiClientOptions, load = loadClient): WebCallCreator {
  let client: ReturnType<typeof loadClient> | undefined;
  return async (body, { signal }) => {
    client ??= load(options).catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    const { vapi, dataOf } = await client;
    return dataOf(vapi.POST('/call/web', { body, signal }));
  };
}

export async function loadClient(options: VapiClientOptions) {
  const { createVapiClient, dataOf } = await import('@engage/vapi-client');
  return { vapi: createVapiClient(options), dataOf };
}
