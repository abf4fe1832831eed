import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticatedUser, VerifyAccessToken } from '../platform/http/require-auth.js';
import { allMigrations } from '../server.js';
import { startProviderTestServer, type ProviderTestServer } from './server-harness.js';

// The public key's reach, set the provider's way (token restrictions). The
// everyone key starts only the public page's assistant, never an inline one; the members key goes
// to signed-in users only; no public answer carries an assistant's prompt, tools or files.

const member: AuthenticatedUser = { id: 'u1', email: 'ada@example.com', role: 'user', appMetadata: {} };
const verify: VerifyAccessToken = async (token) => (token === 'session-token' ? member : null);
const ONBOARDING_PROMPT = 'You help new team members through onboarding';

for (const target of testDbTargets()) {
  describe(`public keys scoped by the provider's restrictions (${target.name})`, () => {
    let db: Db;
    let server: ProviderTestServer;
    let origin: string;
    let keys: Record<string, string | undefined>;

    beforeAll(async () => {
      db = await target.open(allMigrations());
      server = await startProviderTestServer(db, verify);
      ({ origin, keys } = server);
    });

    afterAll(async () => {
      await server.close();
      await db.close();
    });

    const post = (
      route: string,
      key: string | undefined,
      body: unknown,
      headers: Record<string, string> = {},
    ) =>
      fetch(`${origin}${route}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, ...headers },
        body: JSON.stringify(body),
      });
    const config = async (headers: Record<string, string> = {}) =>
      (
        (await (await fetch(`${origin}/config.json`, { headers })).json()) as {
          provider: { publicKey: string; membersPublicKey?: string | null };
        }
      ).provider;
    const count = async (table: 'emulator_calls' | 'emulator_chat_sessions') =>
      Number((await db.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);

    it('gives the members key only to a request with a valid session', async () => {
      const anonymous = await config();
      expect(anonymous.publicKey).toBe(keys.emulatorPublicKey);
      expect(anonymous).not.toHaveProperty('membersPublicKey');
      expect(await config({ Authorization: 'Bearer forged' })).not.toHaveProperty('membersPublicKey');
      const signedIn = await config({ Authorization: 'Bearer session-token' });
      expect(signedIn.membersPublicKey).toBe(keys.emulatorMembersPublicKey);
      expect(signedIn.membersPublicKey).not.toBe(signedIn.publicKey);
      // The page's own copy of the configuration is the same for everybody.
      const page = await (await fetch(`${origin}/`)).text();
      expect(page).not.toContain(keys.emulatorMembersPublicKey!);
    });

    it("refuses the sign-in-only assistants to the everyone key, in the provider's error shape, storing nothing", async () => {
      const before = await count('emulator_calls');
      for (const assistantId of [SEEDED_ASSISTANT_IDS.onboarding, SEEDED_ASSISTANT_IDS.ediscovery]) {
        const call = await post('/provider/call/web', keys.emulatorPublicKey, { assistantId });
        expect(call.status).toBe(403);
        const body = (await call.json()) as Record<string, unknown>;
        expect(body).toEqual({
          statusCode: 403,
          error: 'Forbidden',
          message: `This key may not use the assistant ${assistantId}.`,
        });
        const chat = await post('/provider/chat/web', keys.emulatorPublicKey, { assistantId, input: 'Hi' });
        expect(chat.status).toBe(403);
        expect(await chat.text()).not.toContain(ONBOARDING_PROMPT);
      }
      expect(await count('emulator_calls')).toBe(before);
    });

    it('starts the public assistant with the everyone key and answers the public call shape', async () => {
      const res = await post('/provider/call/web', keys.emulatorPublicKey, {
        assistantId: SEEDED_ASSISTANT_IDS.index,
      });
      expect(res.status).toBe(201);
      const call = (await res.json()) as Record<string, unknown>;
      expect(call).toMatchObject({
        assistantId: SEEDED_ASSISTANT_IDS.index,
        status: 'queued',
        type: 'webCall',
        webCallUrl: expect.stringContaining(`/provider/rooms/${call.id as string}`),
        artifactPlan: { videoRecordingEnabled: false },
      });
      expect(Object.keys(call)).not.toContain('assistant');
      expect(JSON.stringify(call)).not.toMatch(/toolIds|messages|You speak for the site owner/);
    });

    it('lets the members key start the sign-in-only assistants, and only those', async () => {
      const members = keys.emulatorMembersPublicKey;
      const call = await post('/provider/call/web', members, {
        assistantId: SEEDED_ASSISTANT_IDS.onboarding,
      });
      expect(call.status).toBe(201);
      expect(JSON.stringify(await call.json())).not.toContain(ONBOARDING_PROMPT);
      const chat = await post('/provider/chat/web', members, {
        assistantId: SEEDED_ASSISTANT_IDS.ediscovery,
        input: 'Hello',
      });
      expect(chat.status).toBe(201);
      const index = await post('/provider/call/web', members, { assistantId: SEEDED_ASSISTANT_IDS.index });
      expect(index.status).toBe(403);
    });

    it('refuses inline assistants and model overrides to both public keys (they would read any document by id)', async () => {
      // Another owner's query tool, by id: its documents would be quoted to the caller.
      const reader = { model: { provider: 'openai', model: 'gpt-4o', toolIds: ['someone-elses-tool'] } };
      const sessions = await count('emulator_chat_sessions');
      for (const key of [keys.emulatorPublicKey, keys.emulatorMembersPublicKey]) {
        const call = await post('/provider/call/web', key, { assistant: reader });
        expect(call.status).toBe(403);
        expect(((await call.json()) as { message: string }).message).toContain('transient assistant');
        const chat = await post('/provider/chat/web', key, { assistant: reader, input: 'What does it say?' });
        expect(chat.status).toBe(403);
      }
      const override = await post('/provider/call/web', keys.emulatorPublicKey, {
        assistantId: SEEDED_ASSISTANT_IDS.index,
        assistantOverrides: { model: reader.model },
      });
      expect(override.status).toBe(403);
      expect(await count('emulator_chat_sessions')).toBe(sessions);
      // The private key is the owner's: it may still run an inline assistant.
      expect((await post('/provider/call/web', keys.emulatorPrivateKey, { assistant: reader })).status).toBe(
        201,
      );
    });

    it('refuses a session of a refused assistant to be continued through the everyone key', async () => {
      const started = await post('/provider/chat/web', keys.emulatorMembersPublicKey, {
        assistantId: SEEDED_ASSISTANT_IDS.onboarding,
        input: 'Hello',
      });
      const { sessionId } = (await started.json()) as { sessionId: string };
      const continued = await post('/provider/chat/web', keys.emulatorPublicKey, {
        sessionId,
        input: 'And then?',
      });
      expect(continued.status).toBe(403);
    });

    it('refuses anonymous WebSocket calls of the sign-in-only assistants', async () => {
      const anonymous = await post(
        '/api/calls/websocket',
        undefined,
        { assistantId: SEEDED_ASSISTANT_IDS.onboarding },
        {},
      );
      expect(anonymous.status).toBe(401);
    });

    describe('the /token routes', () => {
      const tokenRoute = (method: string, route: string, key: string | undefined, body?: unknown) =>
        fetch(`${origin}/provider${route}`, {
          method,
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });

      it('makes, lists, changes and deletes tokens with the private key only', async () => {
        expect((await tokenRoute('POST', '/token', keys.emulatorPublicKey, { tag: 'public' })).status).toBe(
          401,
        );
        const created = await tokenRoute('POST', '/token', keys.emulatorPrivateKey, {
          tag: 'public',
          name: 'site',
          restrictions: {
            allowedAssistantIds: [SEEDED_ASSISTANT_IDS.index],
            allowedOrigins: ['https://engage.example'],
          },
        });
        expect(created.status).toBe(201);
        const token = (await created.json()) as { id: string; value: string; tag: string };
        expect(token).toMatchObject({ tag: 'public', name: 'site', value: expect.any(String) });

        const index = { assistantId: SEEDED_ASSISTANT_IDS.index };
        expect((await post('/provider/call/web', token.value, index)).status).toBe(403);
        const otherOrigin = { Origin: 'https://evil.example' };
        expect((await post('/provider/call/web', token.value, index, otherOrigin)).status).toBe(403);
        const ownOrigin = { Origin: 'https://engage.example' };
        expect((await post('/provider/call/web', token.value, index, ownOrigin)).status).toBe(201);
        // A public token opens nothing else.
        expect((await tokenRoute('GET', '/assistant', token.value)).status).toBe(401);

        const listed = (await (await tokenRoute('GET', '/token', keys.emulatorPrivateKey)).json()) as {
          id: string;
        }[];
        expect(listed.map((t) => t.id)).toContain(token.id);
        const off = await tokenRoute('PATCH', `/token/${token.id}`, keys.emulatorPrivateKey, {
          restrictions: { enabled: false },
        });
        expect(off.status).toBe(200);
        expect((await post('/provider/call/web', token.value, index, ownOrigin)).status).toBe(401);
        expect((await tokenRoute('DELETE', `/token/${token.id}`, keys.emulatorPrivateKey)).status).toBe(200);
        expect((await tokenRoute('GET', `/token/${token.id}`, keys.emulatorPrivateKey)).status).toBe(404);
      });

      it('lets a private token made through /token do what the private key does', async () => {
        const created = await tokenRoute('POST', '/token', keys.emulatorPrivateKey, { tag: 'private' });
        const { value } = (await created.json()) as { value: string };
        expect((await tokenRoute('GET', '/assistant', value)).status).toBe(200);
      });

      it.each([
        ['an unknown property', { tag: 'public', secret: 1 }, 'property secret should not exist'],
        ['a long name', { name: 'n'.repeat(41) }, 'name'],
        ['a bad tag', { tag: 'admin' }, 'tag'],
        [
          'an origin with a path',
          { restrictions: { allowedOrigins: ['https://a.example/x'] } },
          'allowedOrigins',
        ],
        [
          'too many assistants',
          { restrictions: { allowedAssistantIds: Array(101).fill('a') } },
          'allowedAssistantIds',
        ],
      ])('refuses %s with 400', async (_, body, message) => {
        const res = await tokenRoute('POST', '/token', keys.emulatorPrivateKey, body);
        expect(res.status).toBe(400);
        expect(JSON.stringify(await res.json())).toContain(message);
      });
    });
  });
}
