// The server side of `npm run bench:rooms`: call rooms alone on a loopback port, in their own process
// so the benchmark measures the rooms' CPU and memory and not the load generator's.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { createRooms } from '../src/rooms/index.js';

const app = new Hono();
const nodeWs = createNodeWebSocket({ app });
const rooms = createRooms({
  upgradeWebSocket: nodeWs.upgradeWebSocket,
  maxRooms: 200,
  idleTimeoutMs: 300_000,
});
app.route('/rooms', rooms.app);
app.get('/stats', (c) => {
  // Collect first when allowed (--expose-gc), so memory reflects what the rooms hold.
  (globalThis as { gc?: () => void }).gc?.();
  return c.json({ cpu: process.cpuUsage(), memory: process.memoryUsage(), rooms: rooms.stats() });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
nodeWs.injectWebSocket(server);
process.on('SIGTERM', () => {
  rooms.close();
  server.close(() => process.exit(0));
});
