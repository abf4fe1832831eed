// `npm run bench:import`: the knowledge-base import pipeline against the embedded emulator over real
// HTTP on loopback — 200 files, 50 ms added latency per request, 2 s processing — run twice:
//   engage:     the import tool's controller: adaptive upload concurrency (3 at first, growing while
//               answers come quickly, halved on 429 or rising latency, Retry-After honoured, the
//               200 ms gap per slot), retries for 408/429/5xx, and one GET /file per polling round
//               for every processing file on the schedule;
//   sequential: the first design — one upload at a time, 200 ms between files, each uploaded file
//               then polled by its own timer chain (min(3000 + attempt*1000, 10000) ms, 20 attempts,
//               300 s), no retries.
// Reports wall time until every file is done or failed, HTTP requests the provider received, and
// uploads left failed for the user to retry by hand. A second round injects faults (5 % of requests 503, bursts of 429) to show what each loses.
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { BENCHMARKS_FILE, writeNamedSection } from '@engage/bench-doc';
import { migrate } from '@engage/db';
import { openPglite } from '@engage/db';
import { createVapiEmulator, emulatorMigrations, type EmulatorFaults } from '@engage/vapi-emulator';
import { createProviderApi } from '../apps/site/src/features/kb-import/api/provider-api.js';
import {
  FILE_GAP_MS,
  POLL_MAX_ATTEMPTS,
  POLL_OVERALL_TIMEOUT_MS,
  pollDelay,
} from '../apps/site/src/features/kb-import/lib/constants.js';
import { KbImportController } from '../apps/site/src/features/kb-import/lib/controller.js';
import { mimeTypeFor } from '../apps/site/src/features/kb-import/lib/file-types.js';
import { memoryStorage } from '../apps/site/src/features/kb-import/lib/storage.js';

const FILES = Number(process.env.BENCH_FILES ?? 200);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const PROCESSING_MS = Number(process.env.BENCH_PROCESSING_MS ?? 2000);
const keys = { publicKey: 'pk-bench-public', privateKey: 'sk-bench-private' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The upload queue's signal is shared by every upload in flight (up to 24): not a leak.
setMaxListeners(100);

interface Result {
  wallMs: number;
  requests: number;
  done: number;
  failed: number;
  refused: number;
}

function makeFiles(run: string): File[] {
  return Array.from({ length: FILES }, (_, i) => {
    const name = `${run}-doc-${String(i).padStart(3, '0')}.md`;
    const body = `# Document ${i}\n\n${'Knowledge base benchmark text. '.repeat(60)}\n`;
    return new File([body], name, { type: mimeTypeFor(name) });
  });
}

async function startEmulator(faults: EmulatorFaults) {
  const db = await openPglite();
  await migrate(db, emulatorMigrations);
  const emulator = createVapiEmulator({ db, keys, processingDelayMs: PROCESSING_MS, faults });
  let requests = 0;
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: (req) => {
          requests++;
          return emulator.fetch(req);
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    );
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests: () => requests,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await db.close();
    },
  };
}

async function runEngage(baseUrl: string, files: File[], requests: () => number): Promise<Result> {
  const controller = new KbImportController({
    storage: memoryStorage(),
    providerName: 'Vapi',
    getApi: () => createProviderApi({ baseUrl, getToken: () => keys.privateKey }),
  });
  const stop = controller.activate();
  const before = requests();
  const started = performance.now();
  await controller.addFiles(files);
  await controller.upload();
  const settled = () => {
    const s = controller.getState();
    return !s.upload.running && s.uploaded.every((f) => f.status === 'done' || f.status === 'failed');
  };
  await new Promise<void>((resolve) => {
    if (settled()) return resolve();
    const unsubscribe = controller.subscribe(() => {
      if (settled()) {
        unsubscribe();
        resolve();
      }
    });
  });
  const wallMs = performance.now() - started;
  stop();
  const s = controller.getState();
  const uploaded = s.uploaded.filter((f) => !f.id.startsWith('failed-'));
  return {
    wallMs,
    requests: requests() - before,
    done: uploaded.filter((f) => f.status === 'done').length,
    failed: uploaded.filter((f) => f.status === 'failed').length,
    refused: files.length - uploaded.length,
  };
}

async function runSequential(baseUrl: string, files: File[], requests: () => number): Promise<Result> {
  const auth = { Authorization: `Bearer ${keys.privateKey}` };
  const before = requests();
  const started = performance.now();
  const outcome = new Map<string, string>();
  let refused = 0;
  const poll = async (id: string) => {
    const t0 = performance.now();
    for (let attempt = 0; attempt < POLL_MAX_ATTEMPTS; attempt++) {
      await sleep(pollDelay(attempt));
      if (performance.now() - t0 >= POLL_OVERALL_TIMEOUT_MS) break;
      const res = await fetch(`${baseUrl}/file/${id}`, { headers: auth });
      if (res.status === 429) continue; // rate limited: skipped
      if (!res.ok) continue;
      const file = (await res.json()) as { status?: string };
      if (file.status === 'done' || file.status === 'failed') {
        outcome.set(id, file.status);
        return;
      }
    }
  };
  // The first design lists the provider's files once to screen duplicates. Generously to this baseline, a failed
  // listing does not stop it (the first design would stop with 'Failed to load files').
  await (await fetch(`${baseUrl}/file`, { headers: auth })).text();
  const polls: Promise<void>[] = [];
  for (const file of files) {
    const form = new FormData();
    form.append('file', file, file.name);
    const res = await fetch(`${baseUrl}/file`, { method: 'POST', headers: auth, body: form });
    if (res.ok) {
      const created = (await res.json()) as { id: string };
      polls.push(poll(created.id));
    } else {
      await res.text();
      refused++; // stored as a failed record; the algorithm does not retry by itself
    }
    await sleep(FILE_GAP_MS);
  }
  await Promise.all(polls);
  const statuses = [...outcome.values()];
  return {
    wallMs: performance.now() - started,
    requests: requests() - before,
    done: statuses.filter((s) => s === 'done').length,
    failed: statuses.filter((s) => s === 'failed').length,
    refused,
  };
}

type Summary = Record<'engage' | 'sequential', { wallMs: number; requests: number; done: number }>;
const summary: Partial<Record<'noFaults' | 'faults', Summary>> = {};

async function round(key: 'noFaults' | 'faults', label: string, faults: () => EmulatorFaults) {
  const rows: [string, Result][] = [];
  for (const [name, run] of [
    ['engage', runEngage],
    ['sequential', runSequential],
  ] as const) {
    const emulator = await startEmulator(faults());
    try {
      rows.push([
        name,
        await run(emulator.baseUrl, makeFiles(name.split(' ')[0] ?? name), emulator.requests),
      ]);
    } finally {
      await emulator.close();
    }
  }
  const pick = (r: Result) => ({ wallMs: Math.round(r.wallMs), requests: r.requests, done: r.done });
  summary[key] = { engage: pick(rows[0]![1]), sequential: pick(rows[1]![1]) };
  out(`\n${label}\n`);
  out(
    '| pipeline | wall time | HTTP requests | done | failed processing | upload refused, left to retry by hand |',
  );
  out('|---|---|---|---|---|---|');
  for (const [name, r] of rows)
    out(
      `| ${name} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.requests} | ${r.done} | ${r.failed} | ${r.refused} |`,
    );
}

const lines: string[] = [];
function out(line: string) {
  console.log(line);
  lines.push(line);
}

out(
  `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${availableParallelism()} cores: ` +
    `${FILES} files, ${LATENCY_MS} ms ` +
    `latency per request, ${PROCESSING_MS} ms processing, emulator on loopback (PGlite in memory).`,
);
await round('noFaults', 'No faults', () => ({ latencyMs: LATENCY_MS }));
if (process.env.BENCH_FAULTS !== '0') {
  // The same seeded fault sequence for both pipelines.
  const seeded = () => {
    let seed = 42;
    return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  };
  await round(
    'faults',
    'Injected faults: 5 % of requests 503, and 3 × 429 (Retry-After 1 s) after every 60 requests',
    () => ({
      latencyMs: LATENCY_MS,
      errorRate: 0.05,
      random: seeded(),
      rateLimit: { burst: 3, every: 60, retryAfterSeconds: 1 },
    }),
  );
}

// `--write` replaces the import tool's section of docs/benchmarks.md (between its markers).
if (process.argv.includes('--write')) {
  const notes = readFileSync(path.join(import.meta.dirname, 'bench-import.notes.md'), 'utf8').trim();
  writeNamedSection(
    'kb-import',
    `## Knowledge base import (\`npm run bench:import\`)\n\n${lines.join('\n').trim()}\n\n${notes}`,
  );
  console.log(`\nWrote the kb-import section of ${path.relative(process.cwd(), BENCHMARKS_FILE)}`);
}

// `--json`: the figures as one JSON line, the last line printed.
if (process.argv.includes('--json')) console.log(JSON.stringify(summary));
