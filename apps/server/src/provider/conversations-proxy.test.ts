import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, verify } from '../conversations/conversations-harness.js';
import { allMigrations } from '../server.js';
import { startProviderTestServer, type ProviderTestServer } from './server-harness.js';

// /conversations reads and deletes the visitors' calls and chats through /api/provider
// with the server's key. Those routes are for operators and admins only (as the import tool's):
// a signed-in user without the role, or nobody, gets nothing; a chat cannot be started with the key.

/** The conversation routes the page uses, with an id that exists nowhere. */
const ROUTES: [string, string][] = [
  ['GET', '/call'],
  ['GET', '/call/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/call/00000000-0000-4000-8000-000000000000'],
  ['GET', '/chat?limit=5'],
  ['GET', '/chat/no-such-chat'],
  ['DELETE', '/chat/no-such-chat'],
];

for (const target of testDbTargets()) {
  describe(`conversations through /api/provider (${target.name})`, () => {
    let db: Db;
    let server: ProviderTestServer;
    let origin: string;

    beforeAll(async () => {
      db = await target.open(allMigrations());
      server = await startProviderTestServer(db, verify);
      origin = server.origin;
    });

    afterAll(async () => {
      await server.close();
      await db.close();
    });

    const proxy = (method: string, route: string, token?: string) =>
      client(origin, '').send(method, `/api/provider${route}`, token ?? null);

    it('refuses a signed-in user without the role (403 operator_required) and anonymous callers (401)', async () => {
      for (const [method, route] of ROUTES) {
        const user = await proxy(method, route, 'user-token');
        expect([method, route, user.status]).toEqual([method, route, 403]);
        expect(await user.json()).toMatchObject({ error: 'operator_required' });
        const anonymous = await proxy(method, route);
        expect([method, route, anonymous.status]).toEqual([method, route, 401]);
      }
    });

    it('lets operators and admins reach every conversation route (never refused by the allow-list)', async () => {
      for (const token of ['operator-token', 'admin-token'])
        for (const [method, route] of ROUTES) {
          const res = await proxy(method, route, token);
          // The provider answers (200, or 404 for an id that does not exist); the proxy refuses nothing.
          expect([token, method, route, res.status === 401 || res.status === 403]).toEqual([
            token,
            method,
            route,
            false,
          ]);
        }
    });

    it("reads a visitor's chat by id as the operator, while starting a chat with the server's key stays refused", async () => {
      const created = await client(origin, '').send(
        'POST',
        '/provider/chat',
        server.keys.emulatorPrivateKey ?? null,
        {
          assistantId: SEEDED_ASSISTANT_IDS.index,
          input: 'What are your opening hours?',
        },
      );
      expect(created.status).toBe(201);
      const chat = (await created.json()) as { id: string };
      const read = await proxy('GET', `/chat/${chat.id}`, 'operator-token');
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id: chat.id, input: 'What are your opening hours?' });
      expect((await proxy('GET', `/chat/${chat.id}`, 'user-token')).status).toBe(403);

      const start = await client(origin, '').send('POST', '/api/provider/chat', 'operator-token', {
        assistantId: SEEDED_ASSISTANT_IDS.index,
        input: 'hi',
      });
      expect(start.status).toBe(403);
      expect(await start.json()).toMatchObject({ error: 'route_not_allowed' });
    });

    it("lists calls for the operator in the provider's shape (an array)", async () => {
      const res = await proxy(
        'GET',
        `/call?assistantId=${SEEDED_ASSISTANT_IDS.index}&limit=10`,
        'admin-token',
      );
      expect(res.status).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
    });
  });
}
