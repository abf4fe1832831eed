import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import type { SecretStore } from '../platform/secrets.js';

/** The embedded auth's key material: one ES256 signing key and the two API keys. */
export interface AuthKeys {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public JWK as published at /.well-known/jwks.json. */
  publicJwk: JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig'; key_ops: ['verify'] };
  /** The key the browser may hold (role anon). */
  anonKey: string;
  /** The key with admin authority (role service_role); server-side only. */
  serviceRoleKey: string;
}

export const SECRET_NAMES = {
  signingKey: 'authSigningKey',
  anonKey: 'authAnonKey',
  serviceRoleKey: 'authServiceRoleKey',
} as const;

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** RFC 7638 thumbprint of an EC public key, shortened: stable across restarts. */
function thumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/** Signs a JWT with ES256 synchronously (API keys are made inside SecretStore.getOrCreate). */
export function signEs256(payload: Record<string, unknown>, privateKey: KeyObject, kid: string): string {
  const head = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid }));
  const body = b64url(JSON.stringify(payload));
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), {
    key: privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${head}.${body}.${b64url(signature)}`;
}

/** The `kid` in a JWT's header, or undefined for anything else. */
function keyIdOf(jwt: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('utf8')) as unknown;
    const kid = (header as { kid?: unknown } | null)?.kid;
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/** Ten years, as Supabase's own anon and service keys. */
const API_KEY_LIFETIME_S = 10 * 365 * 24 * 3600;

export interface LoadAuthKeysOptions {
  /** AUTH_SIGNING_KEY: the private signing key as a JWK (JSON), winning over the stored one. */
  signingKey?: string;
  /** AUTH_ANON_KEY / AUTH_SERVICE_ROLE_KEY from the environment win over stored values. */
  anonKey?: string;
  serviceRoleKey?: string;
  now?: () => number;
}

/**
 * Loads the signing key and the API keys from the secret store, generating them on first use.
 * The API keys are JWTs (`role: anon` / `role: service_role`) signed with the same key.
 */
export function loadAuthKeys(secrets: SecretStore, options: LoadAuthKeysOptions = {}): AuthKeys {
  const now = options.now ?? Date.now;
  const privateJwk = JSON.parse(
    options.signingKey ??
      secrets.getOrCreate(SECRET_NAMES.signingKey, () => {
        const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        return JSON.stringify(privateKey.export({ format: 'jwk' }));
      }),
  ) as JsonWebKey;
  const privateKey = createPrivateKey({ key: privateJwk, format: 'jwk' });
  const publicKey = createPublicKey(privateKey);
  const exported = publicKey.export({ format: 'jwk' });
  const kid = thumbprint(exported);
  const apiKey = (role: 'anon' | 'service_role') => () => {
    const iat = Math.floor(now() / 1000);
    return signEs256({ iss: 'engage', role, iat, exp: iat + API_KEY_LIFETIME_S }, privateKey, kid);
  };
  // A stored API key signed by another key (AUTH_SIGNING_KEY set after the first start) would be
  // refused: one signed by this key is kept beside it, under a name carrying this key's id.
  const storedApiKey = (name: string, role: 'anon' | 'service_role') => {
    const stored = secrets.getOrCreate(name, apiKey(role));
    return keyIdOf(stored) === kid ? stored : secrets.getOrCreate(`${name}.${kid}`, apiKey(role));
  };
  return {
    kid,
    privateKey,
    publicKey,
    publicJwk: { ...exported, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
    anonKey: options.anonKey ?? storedApiKey(SECRET_NAMES.anonKey, 'anon'),
    serviceRoleKey: options.serviceRoleKey ?? storedApiKey(SECRET_NAMES.serviceRoleKey, 'service_role'),
  };
}
