import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackConnections } from './http-drain.js';

let server: Server;
afterEach(() => server?.closeAllConnections());

/** A server whose answers wait until `release` is called. */
async function slowServer() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server = createServer(async (req, res) => {
    for await (const _ of req);
    if (req.url === '/slow') await released;
    res.end('done');
  });
  const connections = trackConnections(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, connections, release };
}

/** Sends one keep-alive request on a raw socket and collects what comes back. */
async function open(port: number, path: string) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  return { socket, answer: () => answer, closed: once(socket, 'close') };
}

describe('trackConnections', () => {
  it('lets a request in flight finish, closes idle keep-alive connections at once, then the server', async () => {
    const { port, connections, release } = await slowServer();
    const idle = await open(port, '/fast');
    while (!idle.answer().includes('done')) await once(idle.socket, 'data');
    const busy = await open(port, '/slow');
    // A third request proves the server has read the slow one's head.
    const probe = await open(port, '/fast');
    while (!probe.answer().includes('done')) await once(probe.socket, 'data');

    const serverClosed = once(server, 'close');
    server.close();
    connections.drain();
    await idle.closed;
    await probe.closed;
    expect(busy.socket.destroyed).toBe(false);
    release();
    await busy.closed;
    expect(busy.answer()).toMatch(/^HTTP\/1\.1 200 [\s\S]*done$/);
    await serverClosed;
  });

  it('cuts what is still open when asked', async () => {
    const { port, connections } = await slowServer();
    const busy = await open(port, '/slow');
    const probe = await open(port, '/fast');
    while (!probe.answer().includes('done')) await once(probe.socket, 'data');
    server.close();
    connections.drain();
    connections.cut();
    await busy.closed;
    expect(busy.answer()).toBe('');
  });
});
