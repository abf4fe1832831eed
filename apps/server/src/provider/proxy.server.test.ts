import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createVapiClient, dataOf, fileUpload, isVapiApiError } from '@engage/vapi-client';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../app-harness.js';
import { createLogger } from '../platform/logger.js';
import { openSecretStore } from '../platform/secrets.js';
import { PRIVATE_KEY, signedIn, verify } from './proxy-harness.js';

describe('the embedded provider in the server', () => {
  const PUBLIC_ORIGIN = 'https://engage.example';
  let test: TestApp | undefined;
  let dir: string;
  let origin: string;
  const lines: string[] = [];
  let emulatorPrivateKey: string;

  beforeAll(async () => {
    test = await startTestApp({
      env: { SITE_DIR: path.join(tmpdir(), 'engage-no-site') },
      deps: {
        logger: createLogger('debug', (l) => lines.push(l)),
        verifyAccessToken: verify,
        publicOrigin: () => PUBLIC_ORIGIN,
      },
    });
    ({ dir } = test);
    emulatorPrivateKey = test.secrets.all().emulatorPrivateKey!;
    ({ url: origin } = await test.listen());
  });

  afterAll(async () => {
    await test?.close();
  });

  it('generates the emulator keys once and keeps them in DATA_DIR', () => {
    const stored = openSecretStore(dir).all();
    expect(stored.emulatorPublicKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.emulatorPrivateKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.emulatorPublicKey).not.toBe(stored.emulatorPrivateKey);
  });

  it('tells the browser the emulator public key and this server as provider, never the private key', async () => {
    const res = await fetch(`${origin}/config.json`);
    const text = await res.text();
    expect(JSON.parse(text).provider).toEqual({
      name: 'Vapi',
      baseUrl: null,
      publicKey: openSecretStore(dir).all().emulatorPublicKey,
      serverHoldsPrivateKey: true,
      embedded: true,
    });
    expect(text).not.toContain(emulatorPrivateKey);
  });

  it('serves the emulator at /provider: a web call with the public key joins a room on this server', async () => {
    const browser = createVapiClient({
      baseUrl: `${origin}/provider`,
      token: openSecretStore(dir).all().emulatorPublicKey!,
    });
    const call = await dataOf(
      browser.POST('/call/web', { body: { assistantId: SEEDED_ASSISTANT_IDS.index } }),
    );
    expect(call.webCallUrl).toBe(`${origin.replace('http', 'ws')}/provider/rooms/${call.id}`);
    const unknown = await fetch(`${origin}/provider/not-a-route`, {
      headers: { Authorization: `Bearer ${emulatorPrivateKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
  });

  it('lets an operator upload, list and delete files through /api/provider, leaking no key', async () => {
    const viaProxy = createVapiClient({ baseUrl: `${origin}/api/provider`, token: 'good-token' });
    const created = await dataOf(
      viaProxy.POST(
        '/file',
        fileUpload(new File(['# Notes'], 'notes.md', { type: 'text/markdown' }), {
          purpose: 'assistant',
        }),
      ),
    );
    expect(created).toMatchObject({ name: 'notes.md', status: 'processing', bytes: 7 });
    // Stored URLs point at the site's configured public origin.
    expect(created.url).toBe(`${PUBLIC_ORIGIN}/provider/storage/${created.id}/notes.md`);
    expect(
      (await dataOf(viaProxy.GET('/file', { params: { query: { purpose: 'assistant' } } }))).map((f) => f.id),
    ).toContain(created.id);
    const assistant = await dataOf(
      viaProxy.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.onboarding } } }),
    );
    expect(assistant.name).toBe('Project Onboarding Assistant');
    await dataOf(viaProxy.DELETE('/file/{id}', { params: { path: { id: created.id } } }));

    const anonymous = await createVapiClient({ baseUrl: `${origin}/api/provider` })
      .GET('/file', { params: { query: { purpose: 'assistant' } } })
      .catch((e: unknown) => e);
    expect(isVapiApiError(anonymous) && anonymous.status).toBe(401);

    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(emulatorPrivateKey);
  });

  it('stores file URLs on the configured origin whatever Host or X-Forwarded-* the caller sends', async () => {
    const form = new FormData();
    form.append('file', new File(['# Notes'], 'poison.md', { type: 'text/markdown' }));
    const res = await fetch(`${origin}/api/provider/file`, {
      method: 'POST',
      headers: { ...signedIn, 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' },
      body: form,
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; url: string };
    expect(created.url).toBe(`${PUBLIC_ORIGIN}/provider/storage/${created.id}/poison.md`);
    // Straight to the emulator, a caller's forwarding headers are not believed either.
    const direct = await fetch(`${origin}/provider/file/${created.id}`, {
      headers: {
        Authorization: `Bearer ${emulatorPrivateKey}`,
        'X-Forwarded-Host': 'evil.example',
        'X-Engage-Proxy': 'a-guess',
      },
    });
    expect(((await direct.json()) as { url: string }).url).not.toContain('evil.example');
  });

  it('refuses the reported bypass over HTTP: no call list, the assistant is not deleted', async () => {
    const list = await fetch(`${origin}/api/provider/file/..%5Ccall`, { headers: signedIn });
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ error: 'bad_path' });
    const del = await fetch(`${origin}/api/provider/file/..%5Cassistant%5Casst_onboarding`, {
      method: 'DELETE',
      headers: signedIn,
    });
    expect(del.status).toBe(400);
    const still = await fetch(`${origin}/api/provider/assistant/${SEEDED_ASSISTANT_IDS.onboarding}`, {
      headers: signedIn,
    });
    expect(still.status).toBe(200);
  });

  it('refuses dot segments as the request line carried them, before Node resolves them away (400)', async () => {
    // fetch() and curl resolve '..' themselves; a raw request line keeps it, and Node's URL parser
    // would quietly turn /file/../assistant/x into /assistant/x.
    const raw = (target: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const { port } = new URL(origin);
        const req = httpRequest(
          { host: '127.0.0.1', port, path: target, method, headers: signedIn },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    const onboarding = SEEDED_ASSISTANT_IDS.onboarding;
    for (const target of [
      `/api/provider/file/../assistant/${onboarding}`,
      `/api/provider/file/%2e%2e/assistant/${onboarding}`,
      `/api/provider/file/%2E./assistant/${onboarding}`,
      '/api/provider/file/./x',
      '/api/provider/./file',
    ])
      expect([target, await raw(target)]).toEqual([target, 400]);
    expect(await raw(`/api/provider/file/../assistant/${onboarding}`, 'DELETE')).toBe(400);
    const still = await fetch(`${origin}/api/provider/assistant/${onboarding}`, { headers: signedIn });
    expect(still.status).toBe(200);
  });

  it('answers 403 operator_required to a signed-in user without the role', async () => {
    const res = await fetch(`${origin}/api/provider/file`, {
      headers: { Authorization: 'Bearer user-token' },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'operator_required' });
  });
});

describe('the server with a real provider key', () => {
  it('mounts no emulator, generates no emulator keys, and publishes only the public key', async () => {
    const test = await startTestApp({
      env: {
        SITE_DIR: path.join(tmpdir(), 'engage-no-site'),
        VAPI_PRIVATE_KEY: PRIVATE_KEY,
        VAPI_PUBLIC_KEY: 'pk-real-public',
        VAPI_API_URL: 'https://api.provider.test',
      },
      deps: { verifyAccessToken: verify },
    });
    const { app, dir } = test;
    try {
      const text = await (await app.request('/config.json')).text();
      expect(JSON.parse(text).provider).toMatchObject({
        baseUrl: 'https://api.provider.test',
        publicKey: 'pk-real-public',
        serverHoldsPrivateKey: true,
        embedded: false,
      });
      expect(text).not.toContain(PRIVATE_KEY);
      expect(openSecretStore(dir).all()).not.toHaveProperty('emulatorPrivateKey');
      expect((await app.request('/api/provider/file')).status).toBe(401);
      const emulatorPath = await app.request('/provider/file', {
        headers: { Authorization: `Bearer ${PRIVATE_KEY}` },
      });
      expect(emulatorPath.headers.get('content-type') ?? '').not.toContain('application/json');
    } finally {
      await test.close();
    }
  });
});
