import { PROVIDER_ROUTES, type HttpMethod, type Route } from '@engage/vapi-contract';
import { Hono } from 'hono';
import { fail } from '../http.js';

type Method = HttpMethod;

/** The routes the emulator implements, as [method, path pattern]. */
export const IMPLEMENTED: readonly Route[] = [
  ['POST', '/file'],
  ['GET', '/file'],
  ['GET', '/file/{id}'],
  ['PATCH', '/file/{id}'],
  ['DELETE', '/file/{id}'],
  ['POST', '/assistant'],
  ['GET', '/assistant'],
  ['GET', '/assistant/{id}'],
  ['PATCH', '/assistant/{id}'],
  ['PUT', '/assistant/{id}'],
  ['DELETE', '/assistant/{id}'],
  ['GET', '/assistant/{id}/version'],
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
  ['POST', '/call'],
  ['GET', '/call'],
  ['GET', '/call/{id}'],
  ['POST', '/call/web'],
];

/** POST /credential/webhook is called by third parties without a key, so it sits before the key check. */
export const NOT_IMPLEMENTED_PUBLIC: readonly [Method, string][] = [['POST', '/credential/webhook']];

const key = ([method, path]: readonly [string, string]) => `${method} ${path}`;
const handled = new Set([...IMPLEMENTED, ...NOT_IMPLEMENTED_PUBLIC].map(key));

/**
 * Every other route of the provider (the OpenAPI document's operations and SPEC §7's, from
 * @engage/vapi-contract): they answer 501 naming the route, so a caller can tell "not emulated"
 * from "does not exist" (404).
 */
export const NOT_IMPLEMENTED: readonly Route[] = PROVIDER_ROUTES.filter((r) => !handled.has(key(r)));

const toHono = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Fewer parameters first, so /campaign/paginated is registered (and matched) before /campaign/{id}. */
const params = (path: string) => path.split('{').length;

export function notImplementedRoutes(routes: readonly Route[]): Hono {
  const app = new Hono();
  for (const [method, path] of [...routes].sort((a, b) => params(a[1]) - params(b[1])))
    app.on(method, toHono(path), () =>
      fail(
        501,
        `${method} ${path} is not implemented by the embedded provider. Set VAPI_PRIVATE_KEY to use the real one.`,
      ),
    );
  return app;
}
