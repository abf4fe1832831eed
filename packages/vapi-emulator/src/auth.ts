import type { MiddlewareHandler } from 'hono';
import { fail, same } from './http.js';

export interface EmulatorKeys {
  /** Accepted only by POST /call/web and POST /chat/web, as the provider's public key is. */
  publicKey: string;
  /** Accepted everywhere. */
  privateKey: string;
}

const INVALID_KEY =
  'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.';

/** 401 in the provider's shape unless the bearer key may use this route. */
export function keyAuth(keys: EmulatorKeys): MiddlewareHandler {
  if (!keys.publicKey || !keys.privateKey) throw new Error('The emulator needs a public and a private key.');
  if (keys.publicKey === keys.privateKey)
    throw new Error('The emulator public and private keys must differ.');
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) fail(401, 'Missing Authorization header: send `Authorization: Bearer <key>`.');
    const key = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
    const publicScope = c.req.method === 'POST' && /\/(call|chat)\/web$/.test(c.req.path);
    const ok = same(key, keys.privateKey) || (publicScope && same(key, keys.publicKey));
    if (!ok) fail(401, INVALID_KEY);
    await next();
  };
}
