/**
 * `npm run bench:conversations`: the embedded provider's conversation lists with 10 000 stored
 * conversations (5 000 web calls with their messages, 5 000 chat sessions of two chats each), through
 * its HTTP API over loopback with the private key, as /conversations reads them: GET /call and
 * GET /chat first pages, filtered by assistant and by a week's range, a deep chat page, and a "search"
 * (the provider has no text search: every call and chat read in pages of 1000 and scanned).
 * p50 and p95 over RUNS runs after WARMUP, on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 * Writes its section of docs/benchmarks.md (between the conversations markers) and prints it.
 */
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { writeNamedSection } from '@engage/bench-doc';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { createVapiEmulator, emulatorMigrations } from '@engage/vapi-emulator';
import { serve, type ServerType } from '@hono/node-server';
import { CALLS, seedConversations as seed, SESSIONS } from './seed-conversations.js';
import { msCells, time } from './timing.js';

const RUNS = 30;
const WARMUP = 3;
const SEARCH_RUNS = 5;
const keys = { publicKey: 'pk-bench-conversations', privateKey: 'sk-bench-conversations' };

async function measure(db: Db) {
  const now = new Date();
  await seed(db, now);
  const app = createVapiEmulator({ db, keys, maxStoredCalls: 100_000, maxStoredChats: 100_000 });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async <T>(route: string): Promise<T> => {
    const res = await fetch(`${base}${route}`, { headers: { Authorization: `Bearer ${keys.privateKey}` } });
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const sixDaysAgo = new Date(now.getTime() - 6 * 86_400_000).toISOString();
  /** Every call and chat read in pages of 1000 and scanned for a phrase, as a search over the API does. */
  const search = async (phrase: string) => {
    let found = 0;
    let before = new Date(now.getTime() + 1).toISOString();
    for (;;) {
      const calls = await get<{ createdAt: string; transcript: string }[]>(
        `/call?limit=1000&createdAtLt=${before}`,
      );
      found += calls.filter((c) => c.transcript.includes(phrase)).length;
      if (calls.length < 1000) break;
      before = calls.at(-1)!.createdAt;
    }
    for (let page = 1; ; page++) {
      const chats = await get<{ results: { input: string }[]; metadata: { hasNextPage: boolean } }>(
        `/chat?limit=1000&page=${page}`,
      );
      found += chats.results.filter((c) => JSON.stringify(c.input).includes(phrase)).length;
      if (!chats.metadata.hasNextPage) break;
    }
    return found;
  };
  try {
    const found = await search('topic 42');
    if (found === 0) throw new Error('the search found nothing: the seed is not what it should be');
    return {
      callsFirst: await time(() => get('/call?limit=100'), RUNS, WARMUP),
      callsAssistant: await time(() => get('/call?limit=100&assistantId=asst_ediscovery'), RUNS, WARMUP),
      callsWeek: await time(
        () => get(`/call?limit=100&createdAtGe=${weekAgo}&createdAtLt=${sixDaysAgo}`),
        RUNS,
        WARMUP,
      ),
      chatsFirst: await time(() => get('/chat?limit=100'), RUNS, WARMUP),
      chatsAssistant: await time(() => get('/chat?limit=100&assistantId=asst_ediscovery'), RUNS, WARMUP),
      chatsWeek: await time(
        () => get(`/chat?limit=100&createdAtGe=${weekAgo}&createdAtLt=${sixDaysAgo}`),
        RUNS,
        WARMUP,
      ),
      chatsDeep: await time(() => get('/chat?limit=100&page=90'), RUNS, WARMUP),
      search: await time(() => search('topic 42'), SEARCH_RUNS, 1),
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function main() {
  const ms = msCells;
  const tables: string[] = [];
  for (const target of testDbTargets()) {
    process.stdout.write(`${target.name}: seeding 10 000 conversations… `);
    const db = await target.open(emulatorMigrations);
    try {
      const t = await measure(db);
      console.log('measured');
      tables.push(
        [
          `### ${target.name === 'pglite' ? 'PGlite (in memory, the embedded default)' : 'PostgreSQL (loopback)'}`,
          '',
          '| request (private key, loopback HTTP) | p50 | p95 |',
          '|---|---|---|',
          `| \`GET /call?limit=100\` (first page, with messages) | ${ms(t.callsFirst)} |`,
          `| \`GET /call?limit=100&assistantId=…\` | ${ms(t.callsAssistant)} |`,
          `| \`GET /call?limit=100&createdAtGe=…&createdAtLt=…\` (one day, a week ago) | ${ms(t.callsWeek)} |`,
          `| \`GET /chat?limit=100\` (first page, with its count) | ${ms(t.chatsFirst)} |`,
          `| \`GET /chat?limit=100&assistantId=…\` | ${ms(t.chatsAssistant)} |`,
          `| \`GET /chat?limit=100&createdAtGe=…&createdAtLt=…\` | ${ms(t.chatsWeek)} |`,
          `| \`GET /chat?limit=100&page=90\` (deep page) | ${ms(t.chatsDeep)} |`,
          `| search: every call and chat in pages of 1000, scanned (${SEARCH_RUNS} runs) | ${ms(t.search)} |`,
        ].join('\n'),
      );
    } finally {
      await db.close();
    }
  }
  const section = [
    '## Conversations (`npm run bench:conversations`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end (a shared machine: upper bounds). 10 000 conversations stored in the embedded provider: ${CALLS.toLocaleString('en')} web calls of four messages and ${SESSIONS.toLocaleString('en')} chat sessions of two chats, over two weeks. ${RUNS} runs after ${WARMUP} warm-up each.`,
    '',
    ...tables.flatMap((t) => [t, '']),
  ].join('\n');
  writeNamedSection('conversations', section);
  console.log(section);
}

await main();
