/**
 * The site's public origin, for links in mail, the JWT issuer and URLs the provider stores.
 * It comes from configuration only: PUBLIC_URL, or else the server's own listen address.
 * Never from a request's Host or X-Forwarded-* headers, which any client may set (a reset link
 * built from them sends the victim's token to the attacker's host).
 * @module
 */

/** Returns the origin (scheme, host, port, and PUBLIC_URL's path if any), without a trailing slash. */
export type PublicOrigin = () => string;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/** True for an address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `http://localhost:PORT` for a loopback listener, else `http://HOST:PORT` (IPv6 bracketed). */
export function listenOrigin(host: string, port: number): string {
  if (isLoopbackHost(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

export interface PublicOriginSource {
  PUBLIC_URL?: string | undefined;
  HOST: string;
  PORT: number;
}

/**
 * The public origin of a server built from this configuration. With PORT=0 the real port is only
 * known once listening: call `listening(port)` then; until then the configured port is used.
 */
export function createPublicOrigin(config: PublicOriginSource): {
  get: PublicOrigin;
  listening(port: number): void;
} {
  const configured = config.PUBLIC_URL?.replace(/\/+$/, '');
  let port = config.PORT;
  return {
    get: () => configured ?? listenOrigin(config.HOST, port),
    listening(actual) {
      port = actual;
    },
  };
}

/**
 * The origin a page reached this server at, when it is the public origin itself or, for a loopback
 * listener, the same port under another loopback name (a page at 127.0.0.1 where the public origin
 * says localhost); the public origin otherwise. What is built from it (a call room's URL) then
 * matches the page's own origin without ever naming a host a client made up.
 */
export function ownRequestOrigin(requestUrl: string, publicOrigin: string): string {
  const configured = new URL(publicOrigin);
  const requested = new URL(requestUrl);
  if (requested.origin === configured.origin) return configured.origin;
  const loopbackTwin =
    isLoopbackHost(configured.hostname) &&
    isLoopbackHost(requested.hostname) &&
    requested.protocol === configured.protocol &&
    requested.port === configured.port;
  return loopbackTwin ? requested.origin : configured.origin;
}
