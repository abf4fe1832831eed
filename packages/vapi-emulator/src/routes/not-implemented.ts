import { PROVIDER_ROUTES, type HttpMethod, type Route } from '@engage/vapi-contract';
import { Hono } from 'hono';
import { fail } from '../http.js';

const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The routes an app has registered, as the contract writes them ([method, '/file/{id}']): the
 * emulator's list of what it implements is read from its own apps, never kept by hand. Middleware
 * (`use`, method ALL) is not a route; a trailing-slash alias (`/tool/`) is the same route.
 */
export function registeredRoutes(app: Hono): Route[] {
  const seen = new Map<string, Route>();
  for (const { method, path } of app.routes) {
    if (!METHODS.has(method) || path.includes('*')) continue;
    const pattern = (path.replace(/\/+$/, '') || '/').replace(/:(\w+)/g, '{$1}');
    seen.set(`${method} ${pattern}`, [method as HttpMethod, pattern]);
  }
  return [...seen.values()];
}

/** POST /credential/webhook is called by third parties without a key, so it sits before the key check. */
export const NOT_IMPLEMENTED_PUBLIC: readonly Route[] = [['POST', '/credential/webhook']];

const key = ([method, path]: readonly [string, string]) => `${method} ${path}`;

/**
 * Every other route of the provider (the OpenAPI document's operations and the, from
 * @engage/vapi-contract): they answer 501 naming the route, so a caller can tell "not emulated"
 * from "does not exist" (404).
 */
export function notImplementedBesides(implemented: readonly Route[]): Route[] {
  const handled = new Set([...implemented, ...NOT_IMPLEMENTED_PUBLIC].map(key));
  return PROVIDER_ROUTES.filter((r) => !handled.has(key(r)));
}

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
