import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { createVapiClient, dataOf, type VapiClient } from '@engage/vapi-client';
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { createVapiEmulator, SEEDED_ASSISTANT_IDS, type EmulatorCallDirectory } from '@engage/vapi-emulator';
import { apiError, keys, PROXY_SECRET, useHttpEmulator } from './routes-harness.js';

for (const target of testDbTargets()) {
  describe(`the client against the emulator over HTTP: calls (${target.name})`, () => {
    const h = useHttpEmulator(target);
    const { clock } = h;
    let db: Db;
    let server: ServerType;
    let baseUrl: string;
    let vapi: VapiClient;
    beforeAll(() => void ({ db, server, baseUrl, vapi } = h));

    /** POST /call/web with the public key, as the widget sends it, plus the forwarding headers given. */
    const postWebCall = async (headers: Record<string, string>, body: unknown) => {
      const res = await fetch(`${baseUrl}/call/web`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${keys.publicKey}`,
          'Content-Type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, call: (await res.json()) as { id: string; webCallUrl: string } };
    };
    /** The room URL on this server's own address, not a forwarded one. */
    const localRoom = (id: string) => `ws://127.0.0.1:${(server.address() as AddressInfo).port}/rooms/${id}`;

    describe('web calls', () => {
      it('creates a web call with the public key and answers the fields the voice SDK reads, nothing of the assistant', async () => {
        const browser = createVapiClient({ baseUrl, token: keys.publicKey });
        const call = await dataOf(
          browser.POST('/call/web', {
            body: {
              assistantId: SEEDED_ASSISTANT_IDS.onboarding,
              assistantOverrides: { variableValues: { name: 'Ada' } },
            },
          }),
        );
        expect(call.webCallUrl).toBe(localRoom(call.id));
        expect(call).toMatchObject({
          type: 'webCall',
          status: 'queued',
          assistantId: SEEDED_ASSISTANT_IDS.onboarding,
          artifactPlan: { videoRecordingEnabled: false },
          transport: { callUrl: call.webCallUrl },
        });
        // The public shape: the stored assistant's prompt, tools and files stay with the owner.
        expect(call).not.toHaveProperty('assistant');
        expect(JSON.stringify(call)).not.toContain('You help new team members');
        const fetched = await dataOf(vapi.GET('/call/{id}', { params: { path: { id: call.id } } }));
        expect(fetched).toMatchObject({
          id: call.id,
          status: 'queued',
          assistant: { voice: { provider: 'vapi' } },
        });
        expect(fetched.artifactPlan).toBeUndefined();
      });

      it("builds a wss: URL behind the server's TLS proxy (X-Forwarded-Proto and Host)", async () => {
        const { status, call } = await postWebCall(
          {
            'X-Forwarded-Proto': 'https',
            'X-Forwarded-Host': 'engage.example',
            'X-Engage-Proxy': PROXY_SECRET,
          },
          { assistant: { firstMessage: 'Hi', voice: { provider: 'tavus', voiceId: 'r52da2535a' } } },
        );
        expect(status).toBe(201);
        expect(call.webCallUrl).toBe(`wss://engage.example/rooms/${call.id}`);
        expect(
          (await dataOf(vapi.GET('/call/{id}', { params: { path: { id: call.id } } }))).assistant,
        ).toMatchObject({ voice: { provider: 'tavus' } });
      });

      it.each([
        ['without the proxy secret', {}],
        ['with a wrong proxy secret', { 'X-Engage-Proxy': 'guess' }],
        ['with an empty proxy secret', { 'X-Engage-Proxy': '' }],
      ])('ignores X-Forwarded-Proto/Host from a caller %s', async (_label, proof) => {
        const { status, call } = await postWebCall(
          { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example', ...proof },
          { assistantId: SEEDED_ASSISTANT_IDS.index },
        );
        expect(status).toBe(201);
        expect(call.webCallUrl).toBe(localRoom(call.id));
      });

      it('ignores a malformed X-Forwarded-Host instead of putting it in the room URL', async () => {
        const { call } = await postWebCall(
          { 'X-Forwarded-Host': 'evil.example/path?x=', 'X-Engage-Proxy': PROXY_SECRET },
          { assistantId: SEEDED_ASSISTANT_IDS.index },
        );
        expect(call.webCallUrl).toBe(localRoom(call.id));
      });

      it('validates the body as the provider does', async () => {
        const none = await apiError(dataOf(vapi.POST('/call/web', { body: {} })));
        expect(none.status).toBe(400);
        expect(none.message).toContain('Assistant or Squad or Workflow must be provided.');
        const unknown = await apiError(
          dataOf(vapi.POST('/call/web', { body: { assistantId: 'asst_nope' } })),
        );
        expect(unknown.status).toBe(400);
        expect(unknown.message).toContain('asst_nope Does Not Exist');
        const extra = await apiError(
          dataOf(vapi.POST('/call/web', { body: { assistantId: 'x', colour: 'red' } as never })),
        );
        expect(extra.message).toContain('property colour should not exist');
      });
    });

    describe('websocket calls (POST /call)', () => {
      it('creates a vapi.websocket call with the private key and the room URL of the transport', async () => {
        const audioFormat = { format: 'mulaw' as const, container: 'raw' as const, sampleRate: 8000 };
        const call = await dataOf(
          vapi.POST('/call', {
            body: {
              assistantId: SEEDED_ASSISTANT_IDS.index,
              transport: { provider: 'vapi.websocket', audioFormat },
            },
          }),
        );
        expect(call).toMatchObject({
          type: 'vapi.websocketCall',
          status: 'queued',
          transport: { websocketCallUrl: localRoom((call as { id: string }).id), audioFormat },
        });
        // The public key may only create web calls.
        const browser = createVapiClient({ baseUrl, token: keys.publicKey });
        expect((await apiError(dataOf(browser.POST('/call', { body: { assistantId: 'x' } })))).status).toBe(
          401,
        );
      });

      it('refuses phone calls (501), a phone number with a websocket, and an unsupported sample rate', async () => {
        expect(
          (
            await apiError(
              dataOf(
                vapi.POST('/call', {
                  body: { assistantId: SEEDED_ASSISTANT_IDS.index, phoneNumberId: 'p1' },
                }),
              ),
            )
          ).status,
        ).toBe(501);
        const both = await apiError(
          dataOf(
            vapi.POST('/call', { body: { phoneNumberId: 'p1', transport: { provider: 'vapi.websocket' } } }),
          ),
        );
        expect(both.status).toBe(400);
        const rate = await apiError(
          dataOf(
            vapi.POST('/call', {
              body: {
                assistantId: SEEDED_ASSISTANT_IDS.index,
                transport: {
                  provider: 'vapi.websocket',
                  audioFormat: { format: 'pcm_s16le', sampleRate: 12345 },
                },
              },
            }),
          ),
        );
        expect(rate.message).toContain('sampleRate must be one of');
      });
    });

    describe('the call directory given to the rooms', () => {
      it('resolves a call to its greeting and audio format, and records status updates', async () => {
        let directory: EmulatorCallDirectory | undefined;
        const app = createVapiEmulator({
          db,
          keys,
          now: clock.now,
          rooms: (calls) => {
            directory = calls;
            return new Hono().get('/:id', (c) => c.text(`room ${c.req.param('id')}`));
          },
        });
        const res = await app.request('/call/web', {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.publicKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            assistant: { firstMessage: 'Hello {{name}}!' },
            assistantOverrides: { variableValues: { name: 'Ada' } },
          }),
        });
        const { id } = (await res.json()) as { id: string };
        // The rooms sub-app is reachable without a key: the call id is the capability.
        expect(await (await app.request(`/rooms/${id}`)).text()).toBe(`room ${id}`);

        expect(await directory!.resolveCall(id)).toEqual({ firstMessage: 'Hello Ada!' });
        expect(await directory!.resolveCall('no-such-call')).toBeNull();

        // Connections racing for the call on any number of instances: exactly one holds it.
        const claims = await Promise.all(Array.from({ length: 6 }, () => directory!.claimCall(id)));
        expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
        expect(claims.filter((c) => c === 'busy')).toHaveLength(5);
        expect(await directory!.claimCall('no-such-call')).toBe('ended');
        // A claim refused by a room limit is given back, and the call can be joined again.
        directory!.releaseCall(id);
        await expect
          .poll(async () => (await dataOf(vapi.GET('/call/{id}', { params: { path: { id: id } } }))).status)
          .toBe('queued');
        expect(await directory!.claimCall(id)).toBe('claimed');

        directory!.onStatus(id, { status: 'in-progress' });
        await expect
          .poll(async () => (await dataOf(vapi.GET('/call/{id}', { params: { path: { id: id } } }))).status)
          .toBe('in-progress');
        directory!.onStatus(id, { status: 'ended', endedReason: 'customer-ended-call' });
        await expect
          .poll(async () => (await dataOf(vapi.GET('/call/{id}', { params: { path: { id: id } } }))).status)
          .toBe('ended');
        expect((await dataOf(vapi.GET('/call/{id}', { params: { path: { id: id } } }))).endedReason).toBe(
          'customer-ended-call',
        );
        expect(await directory!.resolveCall(id)).toBeNull();
      });
    });
  });
}
