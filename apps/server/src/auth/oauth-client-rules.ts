// The OAuth client fields' rules, as GoTrue checks them: every refusal is a 400 validation_failed
// whose message GoTrue would send; the redirect URIs' refusals also name their field for the
// dashboard (never sent by the auth API, whose answers are GoTrue's).
import { authErrors } from './errors.js';

export const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const invalid = (message: string) => authErrors.validation(message);
/** A refusal of the redirect URIs, naming them for the dashboard. */
const invalidUris = (message: string) => authErrors.validation(message, 'redirect_uris');

/** GoTrue's redirect URI rule: absolute, no fragment, no script-like scheme, http only on loopback. */
export function checkRedirectUris(uris: string[] | undefined, required: boolean): string[] | undefined {
  if (uris === undefined) {
    if (required) throw invalidUris('redirect_uris is required');
    return undefined;
  }
  if (uris.length === 0)
    throw invalidUris(required ? 'redirect_uris is required' : 'redirect_uris cannot be empty');
  if (uris.length > 10) throw invalidUris('redirect_uris cannot exceed 10 items');
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw invalidUris(`invalid redirect_uri '${uri}': must have scheme and host`);
    }
    const scheme = url.protocol.slice(0, -1).toLowerCase();
    if (['javascript', 'data', 'file', 'vbscript', 'about', 'blob'].includes(scheme))
      throw invalidUris(
        `invalid redirect_uri '${uri}': scheme '${scheme}' is not allowed for security reasons`,
      );
    if (!url.host) throw invalidUris(`invalid redirect_uri '${uri}': must have scheme and host`);
    if (scheme === 'http' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
      throw invalidUris(`invalid redirect_uri '${uri}': HTTP scheme only allowed for localhost`);
    if (url.hash || uri.includes('#'))
      throw invalidUris(`invalid redirect_uri '${uri}': fragment not allowed in redirect URI`);
  }
  return uris;
}

export function checkGrantTypes(grants: string[] | undefined): string[] | undefined {
  if (grants === undefined) return undefined;
  if (grants.length === 0) throw invalid('grant_types cannot be empty');
  if (grants.some((g) => !(GRANT_TYPES as readonly string[]).includes(g)))
    throw invalid("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
  return [...new Set(grants)];
}

export function checkUri(value: string | undefined, name: string): string | undefined {
  if (!value) return value;
  if (value.length > 2048) throw invalid(`${name} cannot exceed 2048 characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name} must be a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`${name} must be a valid URL`);
  return value;
}

export function checkName(value: string | undefined): string | undefined {
  if (value !== undefined && value.length > 1024) throw invalid('client_name cannot exceed 1024 characters');
  return value;
}

export function checkAuthMethod(value: string | undefined): AuthMethod | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(AUTH_METHODS as readonly string[]).includes(value))
    throw invalid(`token_endpoint_auth_method must be one of: ${AUTH_METHODS.join(', ')}`);
  return value as AuthMethod;
}
