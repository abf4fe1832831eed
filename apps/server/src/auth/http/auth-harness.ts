// Test support shared by the auth.*.test.ts suites: a database and the embedded auth per describe.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Db, Migration } from '@engage/db';
import type { TestDbTarget } from '@engage/db/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import { serverMigrations } from '../../db/migrations/index.js';
import { createUser } from '../user-store.js';
import { startAuthTestServer, type AuthTestServer, type AuthTestServerOptions } from './server-harness.js';

export const password = 'correct horse 1';
let n = 0;
export const newEmail = () => `user${Date.now()}-${n++}@example.com`;

/** Stands for an object opened later in beforeAll: members are looked up on it when used. */
export function late<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const real = get();
      const value = Reflect.get(real, key, real) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(real) : value;
    },
  });
}

/**
 * Registers the hooks of one database target: a fresh database with `migrations` and the embedded
 * auth over it for the describe, closed after. `db` and `srv` are usable once the hooks ran.
 */
export function authServerHooks(
  target: TestDbTarget,
  migrations: Migration[],
  options: AuthTestServerOptions = {},
) {
  let openDb: Db | undefined;
  let openSrv: AuthTestServer | undefined;
  beforeAll(async () => {
    openDb = await target.open(migrations);
    openSrv = await startAuthTestServer(openDb, options);
  });
  afterAll(async () => {
    await openSrv?.close();
    await openDb?.close();
  });
  return { db: late(() => openDb as Db), srv: late(() => openSrv as AuthTestServer) };
}

/**
 * authServerHooks over the server's own migrations, with the sign-in helpers. Returns `db` and `srv`
 * (usable once the hooks ran) and the helpers.
 */
export function authServerContext(target: TestDbTarget, options: AuthTestServerOptions = {}) {
  const { db, srv } = authServerHooks(target, serverMigrations(), options);

  /** Signs up and confirms through the mailed link's token; returns a signed-in client. */
  async function confirmedUser(email = newEmail()) {
    const client = srv.client();
    const { error } = await client.auth.signUp({ email, password });
    expect(error).toBeNull();
    const mail = await srv.lastMail(email);
    const token = new URL(mail?.link as string).searchParams.get('token') as string;
    const verified = await client.auth.verifyOtp({ token_hash: token, type: 'signup' });
    expect(verified.error).toBeNull();
    return { client, email, session: verified.data.session };
  }

  /** A confirmed user made directly, signed in with the password. */
  async function signedIn(email = newEmail()) {
    await createUser(db, { email, password, emailConfirm: true });
    const client = srv.client();
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    return { client, email, token: data.session?.access_token as string };
  }

  /** A confirmed user made directly, not signed in: its address and id. */
  async function createdUser(email = newEmail()) {
    const user = await createUser(db, { email, password, emailConfirm: true });
    return { email, id: user.id };
  }

  return { db, srv, confirmedUser, signedIn, createdUser };
}

/** Follows a mail link like a browser: the 303 target's fragment as parameters. */
export async function followMailLink(link: string) {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location') as string);
  return { location, params: new URLSearchParams(location.hash.slice(1)) };
}

/** A request over a real socket, so Host and X-Forwarded-* reach the server as an attacker sends them. */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; json: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: text ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;
