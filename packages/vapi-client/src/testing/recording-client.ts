import { createVapiClient } from '../client.js';

/** A client whose requests are recorded (method, URL, headers, body) and answered `{}`. */

export interface Captured {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | null | undefined;
}

export function recordingClient(token: string | null = 'sk-test') {
  const calls: Captured[] = [];
  const client = createVapiClient({
    baseUrl: 'https://api.example.test',
    token: token ?? undefined,
    fetch: async (input, init) => {
      calls.push({
        method: init?.method ?? 'GET',
        url: new URL(String(input)),
        headers: new Headers(init?.headers),
        body: init?.body,
      });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, calls };
}
