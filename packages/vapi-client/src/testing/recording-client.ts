import { createVapiClient } from '../client.js';

/** A client whose requests are recorded as sent (method, URL, headers, body) and answered `{}`. */

export interface Captured {
  method: string;
  url: URL;
  headers: Headers;
  /** The body as the transport sends it, readable as text, JSON or a multipart form. */
  body: Request;
}

export function recordingClient(token: string | null = 'sk-test') {
  const calls: Captured[] = [];
  const client = createVapiClient({
    baseUrl: 'https://api.example.test',
    token: token ?? undefined,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      calls.push({
        method: init?.method ?? 'GET',
        url: new URL(String(input)),
        headers,
        body: new Request(String(input), { method: 'POST', headers, body: init?.body ?? null }),
      });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, calls };
}
