import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Ends an HTTP server's connections for a graceful stop (see `trackConnections`). */
export interface ConnectionDrain {
  /** Closes every idle connection now, and each busy one as soon as its last answer is sent. */
  drain(): void;
  /** Closes every connection at once (the drain took too long). */
  cut(): void;
}

/**
 * Tracks which connections have a request in flight, so a stop closes idle keep-alive connections
 * at once and each busy one right after its last answer is sent (Node's `closeIdleConnections()`
 * only sees the connections idle at the moment it is called). WebSocket connections are left to
 * their own close (1001).
 */
export function trackConnections(server: Server): ConnectionDrain {
  const sockets = new Set<Socket>();
  const busy = new Map<Socket, number>();
  const upgraded = new WeakSet<Socket>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('upgrade', (req: { socket: Socket }) => upgraded.add(req.socket));
  server.on('request', (req: { socket: Socket }, res: { once(e: 'close', f: () => void): void }) => {
    const { socket } = req;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) return void busy.set(socket, left);
      busy.delete(socket);
      // end(), not destroy(): the answer just written is still being delivered.
      if (draining) socket.end();
    });
  });
  return {
    drain() {
      draining = true;
      // As Node's closeIdleConnections(): nothing is on its way on an idle connection.
      for (const socket of sockets) if (!busy.has(socket) && !upgraded.has(socket)) socket.destroy();
    },
    cut() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
