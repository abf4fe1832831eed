/**
 * `npm run bench:provider`: how much of @engage/vapi-client a bundle carries for what it uses
 * (esbuild minified ESM, gzip -9), and the embedded provider's latency and throughput over real
 * HTTP on in-memory PGlite. Writes its section of docs/benchmarks.md and prints it.
 */
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve, type ServerType } from '@hono/node-server';
import { build } from 'esbuild';
import { writeNamedSection } from '@engage/bench-doc';
import { migrate } from '@engage/db';
import { openPglite } from '@engage/db';
import { createVapiClient, dataOf, fileUpload } from '../packages/vapi-client/src/index.js';
import {
  createVapiEmulator,
  emulatorMigrations,
  SEEDED_ASSISTANT_IDS,
} from '../packages/vapi-emulator/src/index.js';

const root = path.resolve(import.meta.dirname, '..');
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

async function bundleSize(entry: string): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function timed(n: number, fn: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function throughput(total: number, concurrency: number, fn: () => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

async function emulatorTimings() {
  const db = await openPglite();
  await migrate(db, emulatorMigrations);
  const keys = { publicKey: 'pk-bench', privateKey: 'sk-bench' };
  // The per-address limit on web calls is lifted: the bench makes 300 from one address.
  const app = createVapiEmulator({ db, keys, processingDelayMs: 0, callsPerMinutePerAddress: 1_000_000 });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const vapi = createVapiClient({ baseUrl, token: keys.privateKey });
  const browser = createVapiClient({ baseUrl, token: keys.publicKey });
  try {
    const content = 'x'.repeat(10_000);
    const ids: string[] = [];
    await timed(20, () => dataOf(vapi.POST('/file', fileUpload(new File([content], 'warm.txt'))))); // warm-up
    const upload = await timed(200, async (i) => {
      ids.push((await dataOf(vapi.POST('/file', fileUpload(new File([content], `f${i}.txt`))))).id);
    });
    const get = await timed(1000, (i) =>
      dataOf(vapi.GET('/file/{id}', { params: { path: { id: ids[i % ids.length]! } } })),
    );
    const webCall = await timed(300, () =>
      dataOf(browser.POST('/call/web', { body: { assistantId: SEEDED_ASSISTANT_IDS.index } })),
    );
    const perSecond = await throughput(3000, 16, () =>
      dataOf(vapi.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.index } } })),
    );
    return { upload, get, webCall, perSecond };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
  }
}

async function main() {
  const errors = await bundleSize(
    "export { isVapiApiError, VapiApiError, VapiNetworkError, sleep } from '@engage/vapi-client';",
  );
  const whole = await bundleSize(
    "export { createVapiClient, dataOf, fileUpload, isVapiApiError } from '@engage/vapi-client';",
  );
  const t = await emulatorTimings();
  const ms = (x: { median: number; p95: number }) =>
    `median ${x.median.toFixed(2)} ms, p95 ${x.p95.toFixed(2)} ms`;

  const date = new Date().toISOString().slice(0, 10);
  const section = [
    '## Provider client and emulator (`npm run bench:provider`)',
    '',
    `Measured ${date}, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end (timings on a loaded machine are upper bounds). Sizes: esbuild minified ESM for the browser, gzip -9.`,
    '',
    '| @engage/vapi-client, imported | min | gzip |',
    '|---|---|---|',
    `| the errors and \`sleep\` (what the voice SDK loads with the page) | ${kB(errors.raw)} | ${kB(errors.gzip)} |`,
    `| \`createVapiClient\`, \`dataOf\`, \`fileUpload\` (every route, openapi-fetch included; the voice SDK loads it on the first start) | ${kB(whole.raw)} | ${kB(whole.gzip)} |`,
    '',
    'Embedded provider over real HTTP (loopback, keep-alive) on in-memory PGlite, through the client:',
    '',
    `- POST /file, 10 kB multipart, 200 sequential: ${ms(t.upload)}`,
    `- GET /file/{id}, 1000 sequential: ${ms(t.get)}`,
    `- POST /call/web with the public key, 300 sequential: ${ms(t.webCall)}`,
    `- GET /assistant/{id}, 3000 requests 16 at a time: ${Math.round(t.perSecond)} requests/s`,
  ].join('\n');

  writeNamedSection('provider', section);
  console.log(section);
}

await main();
