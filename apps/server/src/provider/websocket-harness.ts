// Test support for websocket-calls*.server.test.ts: a room socket that collects the JSON messages
// it is sent, and a POST from a chosen loopback address.
import { request } from 'node:http';
import WebSocket from 'ws';

export interface Socket {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
}

export function connect(url: string, localAddress?: string): Socket {
  const ws = new WebSocket(url, localAddress ? { localAddress } : {});
  const messages: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data, binary) => {
    if (!binary) messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    ws,
    messages,
    closed,
    next: (match) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found) return resolve(found);
          if (ws.readyState === WebSocket.CLOSED) return reject(new Error('closed while waiting'));
          waiters.push(check);
        };
        check();
      }),
  };
}

/** POST over a socket bound to `localAddress` (Linux answers the whole 127/8 on loopback). */
export function postFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
