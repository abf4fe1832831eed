import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { serve, type ServerType } from '@hono/node-server';
import type { Context } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createVapiEmulator,
  emulatorMigrations,
  SEEDED_ASSISTANT_IDS,
  type VapiEmulatorDeps,
} from '@engage/vapi-emulator';

// The standalone emulator's own protections, over real HTTP: a body cap on every route (1 MiB by
// default), a bounded assistantOverrides.variableValues, and POST /call/web per caller address.

const keys = { publicKey: 'pk-limits', privateKey: 'sk-limits' };
const MIB = 1024 * 1024;

/** In these tests the caller's address is a header the test sets: the server passes the socket's. */
const testAddress = (c: Context) => c.req.header('x-test-address');

function bigJson(size: number): Uint8Array<ArrayBuffer> {
  const head = '{"assistantId":"asst_index","pad":"';
  const tail = '"}';
  return new TextEncoder().encode(head + 'x'.repeat(size - head.length - tail.length) + tail);
}

function chunked(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}

for (const target of testDbTargets()) {
  describe(`emulator limits (${target.name})`, () => {
    let db: Db;
    const servers: ServerType[] = [];

    /** A standalone emulator on a port of its own. */
    const start = async (deps: Partial<VapiEmulatorDeps> = {}) => {
      const emulator = createVapiEmulator({ db, keys, ...deps });
      const server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const countCalls = async () =>
      Number((await db.query<{ n: string }>('select count(*) as n from emulator_calls')).rows[0]!.n);

    beforeAll(async () => {
      db = await target.open(emulatorMigrations);
    });

    afterAll(async () => {
      for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
      await db.close();
    });

    describe('body cap (maxJsonBytes, default 1 MiB)', () => {
      const routes: [string, string, string][] = [
        ['POST', '/call/web', keys.publicKey],
        ['POST', '/call', keys.privateKey],
        ['POST', '/assistant', keys.privateKey],
        ['PATCH', `/assistant/${SEEDED_ASSISTANT_IDS.index}`, keys.privateKey],
        ['POST', '/tool', keys.privateKey],
        ['POST', '/knowledge-base', keys.privateKey],
        ['PATCH', '/file/some-id', keys.privateKey],
        // No key at all, and a file route with a body that is not multipart.
        ['POST', '/assistant', ''],
        ['POST', '/file', keys.privateKey],
      ];
      const body = bigJson(5 * MIB);
      const tooLarge = {
        error: 'payload_too_large',
        message: `The request body is too large: at most ${MIB} bytes.`,
        statusCode: 413,
      };

      it.each(routes)('%s %s: a 5 MiB body with Content-Length gets 413', async (method, route, key) => {
        const base = await start();
        const headers = {
          'Content-Type': 'application/json',
          ...(key && { Authorization: `Bearer ${key}` }),
        };
        const res = await fetch(`${base}${route}`, { method, headers, body });
        expect(res.status).toBe(413);
        expect(await res.json()).toEqual(tooLarge);
      });

      it.each(routes)('%s %s: a 5 MiB chunked body gets 413', async (method, route, key) => {
        const base = await start();
        const headers = {
          'Content-Type': 'application/json',
          ...(key && { Authorization: `Bearer ${key}` }),
        };
        const res = await fetch(`${base}${route}`, {
          method,
          headers,
          body: chunked(body),
          duplex: 'half',
        } as RequestInit);
        expect(res.status).toBe(413);
        expect(await res.json()).toEqual(tooLarge);
      });

      it('takes its limit from maxJsonBytes, and leaves multipart uploads to maxFileBytes', async () => {
        const base = await start({ maxJsonBytes: 2048, maxFileBytes: 64 * 1024 });
        const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${keys.privateKey}` };
        const over = await fetch(`${base}/assistant`, { method: 'POST', headers, body: bigJson(4096) });
        expect(over.status).toBe(413);
        expect(((await over.json()) as { message: string }).message).toContain('at most 2048 bytes');
        const form = new FormData();
        form.set('file', new File(['a'.repeat(32 * 1024)], 'notes.txt', { type: 'text/plain' }));
        const upload = await fetch(`${base}/file`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.privateKey}` },
          body: form,
        });
        expect(upload.status).toBe(201);
      });
    });

    describe('assistantOverrides.variableValues (20 keys of 64 characters, values of 1000, 16 KiB as JSON)', () => {
      it.each([
        ['/call/web', keys.publicKey, {}],
        ['/call', keys.privateKey, { transport: { provider: 'vapi.websocket' } }],
      ])('POST %s refuses a 5 MB variableValues with 400 and stores nothing', async (route, key, extra) => {
        // The body cap is raised, so what answers is the variableValues rule and not the 413.
        const base = await start({ maxJsonBytes: 16 * MIB });
        const post = (variableValues: unknown) =>
          fetch(`${base}${route}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
            body: JSON.stringify({
              assistantId: SEEDED_ASSISTANT_IDS.index,
              assistantOverrides: { variableValues },
              ...extra,
            }),
          });
        const before = await countCalls();
        const cases: [unknown, string][] = [
          [{ v: 'x'.repeat(5_000_000) }, 'at most 1000 characters'],
          [
            Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'x'.repeat(999)])),
            'at most 16384 bytes',
          ],
          [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 1])), 'at most 20 keys'],
          [{ ['k'.repeat(65)]: 1 }, 'at most 64 characters'],
          // The OpenAPI document's own check answers this one.
          ['a string', 'must be object'],
        ];
        for (const [values, reason] of cases) {
          const res = await post(values);
          expect(res.status).toBe(400);
          const error = (await res.json()) as { message: string[]; statusCode: number };
          expect(error.statusCode).toBe(400);
          expect(error.message.join(' ')).toContain('assistantOverrides.variableValues');
          expect(error.message.join(' ')).toContain(reason);
        }
        expect(await countCalls()).toBe(before);
        expect((await post({ name: 'Ada' })).status).toBe(201);
        expect(await countCalls()).toBe(before + 1);
      });
    });

    describe('POST /call/web per caller address (callsPerMinutePerAddress)', () => {
      it('answers 429 with Retry-After past the limit for one address, while another address still can', async () => {
        let now = Date.parse('2026-11-21T10:00:00Z');
        const base = await start({
          callsPerMinutePerAddress: 3,
          clientAddress: testAddress,
          now: () => new Date(now),
        });
        const call = (address?: string) =>
          fetch(`${base}/call/web`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${keys.publicKey}`,
              ...(address && { 'X-Test-Address': address }),
            },
            body: JSON.stringify({ assistantId: SEEDED_ASSISTANT_IDS.index }),
          });
        for (let i = 0; i < 3; i++) expect((await call('198.51.100.7')).status).toBe(201);
        const before = await countCalls();
        now += 5_000; // 3 a minute: one more every 20 s
        const limited = await call('198.51.100.7');
        expect(limited.status).toBe(429);
        expect(limited.headers.get('retry-after')).toBe('15');
        expect(await limited.json()).toEqual({
          error: 'rate_limited',
          message: 'Too many calls from this address; try again in 15 s.',
          statusCode: 429,
        });
        expect(await countCalls()).toBe(before);
        // The same address written another way (IPv4-mapped IPv6) is the same caller.
        expect((await call('::ffff:198.51.100.7')).status).toBe(429);
        // Another address has its own allowance; no address (the server in-process) is not limited.
        expect((await call('203.0.113.9')).status).toBe(201);
        for (let i = 0; i < 5; i++) expect((await call()).status).toBe(201);
        now += 15_000;
        expect((await call('198.51.100.7')).status).toBe(201);
        expect((await call('198.51.100.7')).status).toBe(429);
      });

      it('counts IPv6 callers by their /64 network', async () => {
        const base = await start({ callsPerMinutePerAddress: 2, clientAddress: testAddress });
        const call = (address: string) =>
          fetch(`${base}/call/web`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${keys.publicKey}`,
              'X-Test-Address': address,
            },
            body: JSON.stringify({ assistantId: SEEDED_ASSISTANT_IDS.index }),
          });
        expect((await call('2001:db8:1:2::1')).status).toBe(201);
        expect((await call('2001:0db8:0001:0002:ffff::9')).status).toBe(201);
        expect((await call('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).status).toBe(429);
        expect((await call('2001:db8:1:3::1')).status).toBe(201);
      });

      it('limits by the socket address by default, and ignores X-Forwarded-For', async () => {
        const base = await start({ callsPerMinutePerAddress: 2 });
        const call = (forwardedFor: string) =>
          fetch(`${base}/call/web`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${keys.publicKey}`,
              'X-Forwarded-For': forwardedFor,
            },
            body: JSON.stringify({ assistantId: SEEDED_ASSISTANT_IDS.index }),
          });
        expect((await call('192.0.2.1')).status).toBe(201);
        expect((await call('192.0.2.2')).status).toBe(201);
        expect((await call('192.0.2.3')).status).toBe(429);
      });
    });
  });
}
