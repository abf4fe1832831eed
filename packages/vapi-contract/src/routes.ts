/**
 * The provider's routes, once for the emulator and its tests: the routes the provider's API
 * reference lists (some of which its OpenAPI document lacks), the document's operations, and their
 * union.
 * @module
 */
import { DOCUMENTED_ROUTES } from './generated/routes.js';

export { DOCUMENTED_ROUTES };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Route = readonly [HttpMethod, string];

/**
 * The provider's routes as its API reference lists them (plus /v2/knowledge-base), as [method,
 * path pattern]; path parameters are written {name}. Those the OpenAPI document lacks are
 * SPEC_ONLY_ROUTES.
 */
export const VAPI_ROUTES: readonly Route[] = [
  ['POST', '/call'],
  ['GET', '/call'],
  ['GET', '/call/{id}'],
  ['PATCH', '/call/{id}'],
  ['DELETE', '/call/{id}'],
  ['POST', '/call/phone'],
  ['POST', '/call/web'],
  ['GET', '/v2/call/export'],
  ['GET', '/v2/call'],
  ['GET', '/v2/call/metadata'],
  ['GET', '/v2/assistant'],
  ['GET', '/v2/phone-number'],
  ['GET', '/chat'],
  ['POST', '/chat'],
  ['GET', '/chat/{id}'],
  ['DELETE', '/chat/{id}'],
  ['POST', '/chat/responses'],
  ['POST', '/chat/web'],
  ['POST', '/chat/web/responses'],
  ['POST', '/campaign'],
  ['GET', '/campaign'],
  ['GET', '/campaign/paginated'],
  ['GET', '/campaign/{id}'],
  ['PATCH', '/campaign/{id}'],
  ['DELETE', '/campaign/{id}'],
  ['POST', '/session'],
  ['GET', '/session'],
  ['GET', '/session/{id}'],
  ['PATCH', '/session/{id}'],
  ['DELETE', '/session/{id}'],
  ['POST', '/support/ticket'],
  ['POST', '/assistant'],
  ['GET', '/assistant'],
  ['GET', '/assistant/{id}'],
  ['PATCH', '/assistant/{id}'],
  ['PUT', '/assistant/{id}'],
  ['DELETE', '/assistant/{id}'],
  ['GET', '/assistant/{id}/version'],
  ['POST', '/phone-number'],
  ['GET', '/phone-number'],
  ['GET', '/phone-number/{id}'],
  ['PATCH', '/phone-number/{id}'],
  ['DELETE', '/phone-number/{id}'],
  ['POST', '/phone-number/import/twilio'],
  ['POST', '/phone-number/import/vonage'],
  ['POST', '/tool'],
  ['GET', '/tool'],
  ['GET', '/tool/{id}'],
  ['PATCH', '/tool/{id}'],
  ['DELETE', '/tool/{id}'],
  ['POST', '/knowledge-base'],
  ['GET', '/knowledge-base'],
  ['GET', '/knowledge-base/{id}'],
  ['PATCH', '/knowledge-base/{id}'],
  ['DELETE', '/knowledge-base/{id}'],
  ['POST', '/v2/knowledge-base'],
  ['GET', '/v2/knowledge-base'],
  ['GET', '/v2/knowledge-base/{id}'],
  ['PATCH', '/v2/knowledge-base/{id}'],
  ['DELETE', '/v2/knowledge-base/{id}'],
  ['GET', '/v2/knowledge-base/{id}/file'],
  ['POST', '/v2/knowledge-base/{id}/file'],
  ['DELETE', '/v2/knowledge-base/{id}/file/{fileId}'],
  ['POST', '/v2/knowledge-base/{id}/file/{fileId}/retry'],
  ['POST', '/squad'],
  ['GET', '/squad'],
  ['GET', '/squad/{id}'],
  ['PATCH', '/squad/{id}'],
  ['DELETE', '/squad/{id}'],
  ['POST', '/file'],
  ['GET', '/file'],
  ['POST', '/file/upload'],
  ['GET', '/file/{id}'],
  ['PATCH', '/file/{id}'],
  ['DELETE', '/file/{id}'],
  ['GET', '/workflow'],
  ['POST', '/workflow'],
  ['GET', '/workflow/{id}'],
  ['PATCH', '/workflow/{id}'],
  ['DELETE', '/workflow/{id}'],
  ['POST', '/workflow/generate'],
  ['GET', '/test-suite'],
  ['POST', '/test-suite'],
  ['GET', '/test-suite/{id}'],
  ['PATCH', '/test-suite/{id}'],
  ['DELETE', '/test-suite/{id}'],
  ['GET', '/test-suite/{id}/test'],
  ['POST', '/test-suite/{id}/test'],
  ['GET', '/test-suite/{id}/test/{testId}'],
  ['PATCH', '/test-suite/{id}/test/{testId}'],
  ['DELETE', '/test-suite/{id}/test/{testId}'],
  ['GET', '/test-suite/{id}/run'],
  ['POST', '/test-suite/{id}/run'],
  ['GET', '/test-suite/{id}/run/{runId}'],
  ['PATCH', '/test-suite/{id}/run/{runId}'],
  ['DELETE', '/test-suite/{id}/run/{runId}'],
  ['POST', '/analytics'],
  ['GET', '/log'],
  ['DELETE', '/log'],
  ['GET', '/logs'],
  ['DELETE', '/logs'],
  ['POST', '/org'],
  ['GET', '/org'],
  ['GET', '/org/{id}'],
  ['PATCH', '/org/{id}'],
  ['DELETE', '/org/{id}'],
  ['GET', '/org/{id}/user'],
  ['DELETE', '/org/{id}/leave'],
  ['DELETE', '/org/{id}/member/{userId}/leave'],
  ['POST', '/org/{id}/invite'],
  ['PATCH', '/org/{id}/role'],
  ['GET', '/org/{id}/auth'],
  ['POST', '/token'],
  ['GET', '/token'],
  ['GET', '/token/{id}'],
  ['PATCH', '/token/{id}'],
  ['DELETE', '/token/{id}'],
  ['POST', '/credential'],
  ['GET', '/credential'],
  ['GET', '/credential/{id}'],
  ['PATCH', '/credential/{id}'],
  ['DELETE', '/credential/{id}'],
  ['POST', '/credential/session'],
  ['POST', '/credential/webhook'],
  ['POST', '/credential/trigger'],
  ['POST', '/template'],
  ['GET', '/template'],
  ['GET', '/template/pinned'],
  ['GET', '/template/{id}'],
  ['PATCH', '/template/{id}'],
  ['DELETE', '/template/{id}'],
  ['GET', '/voice-library/{provider}'],
  ['GET', '/voice-library/{provider}/accents'],
  ['POST', '/voice-library/sync/{provider}'],
  ['POST', '/voice-library/sync'],
  ['POST', '/voice-library/create-sesame-voice'],
  ['GET', '/{provider}/workflows'],
  ['GET', '/{provider}/workflows/{id}/hooks'],
  ['GET', '/{provider}/locations'],
  ['GET', '/{provider}/voices/search'],
  ['GET', '/{provider}/voice/search'],
  ['POST', '/{provider}/voices/add'],
  ['POST', '/{provider}/voice/add'],
  ['POST', '/11labs/voice/clone'],
];

const key = ([method, path]: readonly [string, string]) => `${method} ${path}`;
const documented = new Set(DOCUMENTED_ROUTES.map(key));

/** Whether openapi.json documents the route (see SPEC_ONLY_ROUTES for those it does not). */
export const isDocumentedRoute = (method: string, path: string): boolean =>
  documented.has(`${method} ${path}`);

/**
 * HAND-WRITTEN: routes of the API reference that the OpenAPI document lacks (POST /call/web, org,
 * token, credential, template, voice library, workflow, test suite, v1 knowledge base, logs, …).
 * The few Engage calls are typed by hand in vapi-client's paths.ts.
 */
export const SPEC_ONLY_ROUTES: readonly Route[] = VAPI_ROUTES.filter((r) => !documented.has(key(r)));

/** Every route of the provider this project knows: the document's operations, then the others. */
export const PROVIDER_ROUTES: readonly Route[] = [
  ...(DOCUMENTED_ROUTES as readonly Route[]),
  ...SPEC_ONLY_ROUTES,
];
