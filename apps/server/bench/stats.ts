/**
 * `npm run bench:stats`: GET /api/conversations/stats (the trends of /conversations) with 10 000
 * conversations stored in the embedded provider (seed-conversations.ts), over loopback HTTP through
 * the whole server with an operator's token: the first request (which indexes the 10 000), then
 * p50 and p95 of the 7, 30 and 90-day figures, and of the incremental sync that brings the index up
 * to date (what a request pays every 30 s). On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 * Writes its section of docs/benchmarks.md (between the conversation-stats markers) and prints it.
 */
import os from 'node:os';
import { writeNamedSection } from '@engage/bench-doc';
import { testDbTargets } from '@engage/db/testing';
import { createVapiClient } from '@engage/vapi-client';
import { startTestApp } from '../src/app-harness.js';
import { syncConversationIndex } from '../src/conversations/conversation-index.js';
import type { AuthenticatedUser } from '../src/platform/http/require-auth.js';
import { allMigrations } from '../src/startup.js';
import { CALLS, seedConversations, SESSIONS } from './seed-conversations.js';
import { msCells, time } from './timing.js';

const RUNS = 100;
const WARMUP = 5;
const SYNC_RUNS = 20;
const operator: AuthenticatedUser = {
  id: '00000000-0000-4000-8000-00000000b001',
  email: 'bench@example.com',
  role: 'operator',
  appMetadata: { role: 'operator' },
};

async function measure(target: ReturnType<typeof testDbTargets>[number]) {
  const db = await target.open(allMigrations());
  await seedConversations(db, new Date());
  const test = await startTestApp({
    db,
    deps: { verifyAccessToken: async (token) => (token === 'bench-token' ? operator : null) },
  });
  try {
    const { url } = await test.listen();
    const stats = async (days: number) => {
      const res = await fetch(`${url}/api/conversations/stats?days=${days}`, {
        headers: { Authorization: 'Bearer bench-token' },
      });
      if (!res.ok) throw new Error(`stats: ${res.status} ${await res.text()}`);
      return (await res.json()) as { totals: { conversations: number } };
    };
    const started = performance.now();
    const first = await stats(30);
    const firstMs = performance.now() - started;
    if (first.totals.conversations !== CALLS + SESSIONS)
      throw new Error(`indexed ${first.totals.conversations} conversations, not ${CALLS + SESSIONS}`);
    const vapi = createVapiClient({
      baseUrl: `${url}/provider`,
      token: test.secrets.all().emulatorPrivateKey!,
    });
    return {
      firstMs,
      week: await time(() => stats(7), RUNS, WARMUP),
      month: await time(() => stats(30), RUNS, WARMUP),
      quarter: await time(() => stats(90), RUNS, WARMUP),
      sync: await time(
        () =>
          syncConversationIndex({
            db,
            vapi,
            siteAssistantIds: [
              test.config.ASSISTANT_ID_INDEX,
              test.config.ASSISTANT_ID_EDISCOVERY,
              test.config.ASSISTANT_ID_ONBOARDING,
            ],
            phrases: undefined,
          }),
        SYNC_RUNS,
        1,
      ),
    };
  } finally {
    await test.close();
    await db.close();
  }
}

async function main() {
  const ms = msCells;
  const tables: string[] = [];
  for (const target of testDbTargets()) {
    process.stdout.write(`${target.name}: seeding 10 000 conversations… `);
    const t = await measure(target);
    console.log('measured');
    tables.push(
      [
        `### ${target.name === 'pglite' ? 'PGlite (in memory, the embedded default)' : 'PostgreSQL (loopback)'}`,
        '',
        `The first request, which reads the 10 000 conversations from the provider into the index: ${t.firstMs.toFixed(0)} ms.`,
        '',
        '| request (operator token, loopback HTTP) | p50 | p95 |',
        '|---|---|---|',
        `| \`GET /api/conversations/stats?days=7\` | ${ms(t.week)} |`,
        `| \`GET /api/conversations/stats?days=30\` | ${ms(t.month)} |`,
        `| \`GET /api/conversations/stats?days=90\` | ${ms(t.quarter)} |`,
        `| the index brought up to date (at most every 30 s; ${SYNC_RUNS} runs) | ${ms(t.sync)} |`,
      ].join('\n'),
    );
  }
  const section = [
    '## Conversation trends (`npm run bench:stats`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end (a shared machine: upper bounds). 10 000 conversations stored in the embedded provider (${CALLS.toLocaleString('en')} web calls, ${SESSIONS.toLocaleString('en')} chat sessions of two chats, over two weeks), read by the whole server. ${RUNS} runs after ${WARMUP} warm-up for each period. Target: p95 ≤ 100 ms.`,
    '',
    ...tables.flatMap((t) => [t, '']),
  ].join('\n');
  writeNamedSection('conversation-stats', section);
  console.log(section);
}

await main();
