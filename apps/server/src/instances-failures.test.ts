// Several real server processes on one throwaway PostgreSQL (see instances.test.ts), failing: one
// killed, the database down, a SIGTERM with a request in flight. The cluster may be stopped and
// restarted. Runs as root only (CI does); skipped elsewhere with the reason printed.
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { InstanceProcess } from './testing/instance-process.js';
import { ADMIN, anonKeyOf, get, signIn, untilReady, useInstances } from './testing/instances-harness.js';
import { throwawayPostgresUnavailable } from './testing/throwaway-postgres.js';

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`[instances test] skipped: ${unavailable}`);

describe.skipIf(unavailable)('several instances on one PostgreSQL, failing', () => {
  const { instances, cluster } = useInstances();

  it('keeps serving on the others when one is killed', async () => {
    const killed = instances[2]!;
    killed.child.kill('SIGKILL');
    await killed.exited;
    const anonKey = await anonKeyOf(instances[0]!);
    for (const instance of instances.slice(0, 2)) {
      expect((await get(instance, '/readyz')).status).toBe(200);
      expect((await signIn(instance, anonKey)).status).toBe(200);
    }
  });

  it('answers 503 while PostgreSQL is down and recovers without a restart', async () => {
    const [a, b] = instances as [InstanceProcess, InstanceProcess];
    const anonKey = await anonKeyOf(a);
    const pids = [a.child.pid, b.child.pid];
    cluster.stop();
    const outage = Date.now();
    try {
      // Each answer comes within 10 s (the requests abort past it and the test fails).
      const refused = await signIn(a, anonKey);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: 'database_unavailable' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const instance of [a, b]) expect((await get(instance, '/readyz')).status).toBe(503);
      expect((await get(b, '/healthz')).status).toBe(200); // liveness: no restart wanted
      // The outage lasts 8 s, as a database restart or failover would.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 8_000 - (Date.now() - outage))));
    } finally {
      cluster.start();
    }
    for (const instance of [a, b]) {
      await untilReady(instance, 200);
      expect((await signIn(instance, anonKey)).status).toBe(200);
    }
    expect([a.child.pid, b.child.pid]).toEqual(pids);
    expect(a.child.exitCode ?? b.child.exitCode).toBeNull();
  }, 60_000);

  it('stops on SIGTERM: the request in flight is answered, call rooms close with 1001, exit 0', async () => {
    const instance = instances[1]!;
    const anonKey = await anonKeyOf(instance);
    const config = (await (await get(instance, '/config.json')).json()) as {
      provider: { publicKey: string };
    };
    const created = await get(instance, '/provider/call/web', {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.provider.publicKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ assistantId: 'asst_index' }),
    });
    const { id } = (await created.json()) as { id: string };
    const room = new WebSocket(`${instance.url.replace(/^http/, 'ws')}/provider/rooms/${id}`);
    await new Promise((resolve) => room.once('message', resolve));
    const roomClosed = new Promise<number>((resolve) => room.once('close', resolve));
    // A sign-in whose body is still being sent when the signal comes. `Expect: 100-continue` makes the
    // server say when it has the request's head (Node answers 100 Continue once it is parsed), so the
    // signal is sure to find the request in flight; a probe on another connection would not prove it.
    const body = JSON.stringify(ADMIN);
    const { port } = new URL(instance.url);
    const inFlight = connect(Number(port), '127.0.0.1');
    await once(inFlight, 'connect');
    let answer = '';
    const continued = new Promise<void>((resolve) =>
      inFlight.on('data', (chunk: Buffer) => {
        answer += chunk.toString();
        if (answer.includes('100 Continue\r\n\r\n')) resolve();
      }),
    );
    inFlight.write(
      `POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\napikey: ${anonKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Expect: 100-continue\r\n\r\n`,
    );
    await continued;
    instance.child.kill('SIGTERM');
    expect(await roomClosed).toBe(1001);
    inFlight.write(body); // not end(): a half-closed connection aborts its request
    await once(inFlight, 'close');
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(await instance.exited).toBe(0);
  });
});
