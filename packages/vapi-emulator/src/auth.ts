import type { Context, MiddlewareHandler } from 'hono';
import { fail, same } from './http.js';
import { setKeyScope, type KeyScope, type TokenRestrictions } from './tokens/scope.js';

/** A public key the emulator is started with, and what it may do. */
export interface PublicKeyGrant {
  value: string;
  /** The provider's TokenRestrictions; none means any assistant, transient ones, any origin. */
  restrictions?: TokenRestrictions;
}

export interface EmulatorKeys {
  /** Accepted only by POST /call/web and POST /chat/web, as the provider's public key is. */
  publicKey: string;
  /** The restrictions of `publicKey` (default none, as a new key of the provider has). */
  publicKeyRestrictions?: TokenRestrictions;
  /** Further public keys with their own restrictions (the server's members key). */
  otherPublicKeys?: readonly PublicKeyGrant[];
  /** Accepted everywhere. */
  privateKey: string;
}

const INVALID_KEY =
  'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.';

/** The routes a public key may use, as the provider's public key may. */
export const isPublicRoute = (c: Context): boolean =>
  c.req.method === 'POST' && /\/(call|chat)\/web$/.test(c.req.path);

/**
 * 401 in the provider's shape unless the bearer key may use this route: the configured keys, or a
 * token made through POST /token (`findToken`). The key's scope is recorded for the public routes,
 * which enforce its restrictions (tokens/scope.ts).
 */
export function keyAuth(
  keys: EmulatorKeys,
  findToken: (value: string) => Promise<KeyScope | null>,
): MiddlewareHandler {
  if (!keys.publicKey || !keys.privateKey) throw new Error('The emulator needs a public and a private key.');
  const publicKeys: readonly PublicKeyGrant[] = [
    { value: keys.publicKey, restrictions: keys.publicKeyRestrictions ?? {} },
    ...(keys.otherPublicKeys ?? []),
  ];
  // A check of the configuration at start, comparing two keys the operator set: no caller's guess.
  // eslint-disable-next-line no-restricted-syntax
  if (publicKeys.some((k) => k.value === keys.privateKey))
    throw new Error('The emulator public and private keys must differ.');
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) fail(401, 'Missing Authorization header: send `Authorization: Bearer <key>`.');
    const key = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
    // Every configured key is compared (constant time each), so which one matched takes no longer.
    const granted = publicKeys.filter((k) => same(key, k.value))[0];
    const scope: KeyScope | null = same(key, keys.privateKey)
      ? { tag: 'private' }
      : granted
        ? { tag: 'public', restrictions: granted.restrictions ?? {} }
        : key
          ? await findToken(key)
          : null;
    if (!scope || (scope.tag === 'public' && !isPublicRoute(c))) fail(401, INVALID_KEY);
    if (scope.tag === 'public' && scope.restrictions.enabled === false) fail(401, INVALID_KEY);
    setKeyScope(c, scope);
    await next();
  };
}
