/**
 * EMBED_ORIGINS: the other sites allowed to run Engage's widget (<engage-widget>, /embed.js). A comma
 * list of origins, `scheme://host[:port]` exactly (no path, no wildcard), compared as the browser
 * sends them in `Origin`. Default: none, so only Engage's own pages reach the assistant.
 * @module
 */
import { z } from 'zod';
import { isLoopbackHost } from './public-origin.js';

const MAX_ORIGINS = 50;

/** One origin, normalised as a browser's `Origin` header spells it (lower-case host, no default port). */
const originSchema = z
  .string()
  .max(200)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        !url.username &&
        !url.password &&
        url.pathname === '/' &&
        !url.search &&
        !url.hash &&
        !value.includes('?') &&
        /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(url.hostname)
      );
    } catch {
      return false;
    }
  }, 'must be origins (https://site.example or http://host:port: no path, no wildcard) separated by commas')
  .transform((value) => new URL(value).origin);

export const embedOriginsSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(z.array(originSchema).max(MAX_ORIGINS, `must list at most ${MAX_ORIGINS} origins`))
  .transform((origins) => [...new Set(origins)])
  .default([]);

/**
 * The origins Engage's own pages are served from, as far as configuration tells (the provider's
 * public key must allow them beside EMBED_ORIGINS): PUBLIC_URL's, or on a loopback listener each
 * name of this machine. Null when it cannot be known (no PUBLIC_URL and PORT=0).
 */
export function ownOrigins(config: {
  PUBLIC_URL?: string | undefined;
  HOST: string;
  PORT: number;
}): string[] | null {
  if (config.PUBLIC_URL) return [new URL(config.PUBLIC_URL).origin];
  if (config.PORT === 0) return null;
  if (isLoopbackHost(config.HOST))
    return ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${config.PORT}`);
  return [`http://${config.HOST}:${config.PORT}`];
}
