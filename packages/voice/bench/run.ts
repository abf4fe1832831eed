/**
 * `npm run bench:voice`: the SDK's own start-up overhead against the Daily fake, and bundle sizes
 * (minified with esbuild, gzip via zlib) of this SDK and of @vapi-ai/web, measured the same way.
 * Writes its section of docs/benchmarks.md (between the voice markers) and prints it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeNamedSection } from '@engage/bench-doc';
import { build, type Metafile } from 'esbuild';
import { Vapi } from '../src/index.js';
import { FakeDaily } from '../src/testing/index.js';

const here = import.meta.dirname;
const root = path.resolve(here, '../../..');
const RUNS = 1000;
const WARMUP = 100;

// --- 1. start() → joined, against the fake ------------------------------------------------

async function overhead(): Promise<{ median: number; p95: number; min: number }> {
  const body = JSON.stringify({ id: 'call-1', webCallUrl: 'https://bench.daily.co/room' });
  const fetch = async () =>
    new Response(body, { status: 201, headers: { 'content-type': 'application/json' } });
  const daily = new FakeDaily();
  const vapi = new Vapi('pk_bench', 'http://api.bench', undefined, undefined, {
    fetch,
    dailyFactory: daily,
    isMobile: () => false,
  });
  let joinedAt = 0;
  vapi.on('call-start-progress', (event) => {
    if (event.stage === 'daily-call-join' && event.status === 'completed') joinedAt = performance.now();
  });
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const call = await vapi.start('assistant-1');
    if (!call) throw new Error('start() failed in the benchmark');
    if (i >= WARMUP) samples.push(joinedAt - t0);
    await vapi.stop();
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { median: at(0.5), p95: at(0.95), min: samples[0]! };
}

// --- 2. sizes ------------------------------------------------------------------------------

const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

interface Sizes {
  raw: number;
  gzip: number;
}

/** Bundles an entry (minified ESM, Daily external) and splits outputs into initial and lazy. */
async function bundle(entry: string, conditions: string[] = []) {
  const result = await build({
    entryPoints: { entry },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    outdir: path.join(os.tmpdir(), 'engage-voice-bench'),
    write: false,
    metafile: true,
    external: ['@daily-co/daily-js'],
    conditions,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const files = new Map(result.outputFiles.map((f) => [path.relative(process.cwd(), f.path), f.contents]));
  const outputs = (result.metafile as Metafile).outputs;
  const entryOut = Object.keys(outputs).find((o) => outputs[o]!.entryPoint !== undefined)!;
  // Everything the entry loads up front (static imports, transitively).
  const initial = new Set<string>();
  const visit = (out: string) => {
    if (initial.has(out)) return;
    initial.add(out);
    for (const imp of outputs[out]!.imports)
      if (imp.kind === 'import-statement' && outputs[imp.path]) visit(imp.path);
  };
  visit(entryOut);
  const sum = (names: Iterable<string>): Sizes => {
    let raw = 0;
    let gzip = 0;
    for (const name of names) {
      const bytes = files.get(name)!;
      raw += bytes.length;
      gzip += gz(bytes);
    }
    return { raw, gzip };
  };
  const lazyDaily = Object.keys(outputs).filter(
    (o) => !initial.has(o) && Object.keys(outputs[o]!.inputs).some((i) => i.endsWith('rooms/daily.ts')),
  );
  const staticDaily = outputs[entryOut]!.imports.some(
    (i) => i.path === '@daily-co/daily-js' && i.kind !== 'dynamic-import',
  );
  return { initial: sum(initial), lazyDaily: sum(lazyDaily), staticDaily };
}

async function dailySize(): Promise<Sizes> {
  const result = await build({
    stdin: { contents: "export { default } from '@daily-co/daily-js';", resolveDir: root },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents;
  return { raw: bytes.length, gzip: gz(bytes) };
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

async function main() {
  const require = createRequire(import.meta.url);
  const official = require.resolve('@vapi-ai/web');
  const officialVersion = (
    JSON.parse(readFileSync(path.join(path.dirname(official), '..', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const dailyVersion = (
    JSON.parse(readFileSync(require.resolve('@daily-co/daily-js/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

  const [ours, theirs, daily] = await Promise.all([
    bundle(path.resolve(here, '../src/index.ts'), ['source']),
    bundle(official),
    dailySize(),
  ]);
  const timing = await overhead();

  const date = new Date().toISOString().slice(0, 10);
  const section = [
    '## Voice SDK (`npm run bench:voice`)',
    '',
    `Measured ${date}, Node ${process.version}, ${os.cpus().length} cores. Sizes: esbuild minified ESM, gzip -9 (zlib);`,
    `\`@daily-co/daily-js\` ${dailyVersion} measured alone the same way. Official SDK: \`@vapi-ai/web\` ${officialVersion}.`,
    '',
    '| | @engage/voice | @vapi-ai/web |',
    '|---|---|---|',
    `| SDK without Daily (loaded with the page) | ${kB(ours.initial.gzip)} gz (${kB(ours.initial.raw)} min) | ${kB(theirs.initial.gzip)} gz (${kB(theirs.initial.raw)} min) |`,
    `| Daily adapter chunk (loaded on first start()) | ${kB(ours.lazyDaily.gzip)} gz (${kB(ours.lazyDaily.raw)} min) | none: Daily is a static import |`,
    `| @daily-co/daily-js | ${kB(daily.gzip)} gz, on first start() | ${kB(daily.gzip)} gz, with the page |`,
    `| Loaded before any call | ${kB(ours.initial.gzip)} gz | ${kB(theirs.initial.gzip + (theirs.staticDaily ? daily.gzip : 0))} gz |`,
    `| Loaded once a call starts | ${kB(ours.initial.gzip + ours.lazyDaily.gzip + daily.gzip)} gz | ${kB(theirs.initial.gzip + daily.gzip)} gz |`,
    '',
    `start() → joined overhead against the Daily fake (instant HTTP answer and join), ${RUNS} runs after ${WARMUP} warm-up:`,
    `median ${timing.median.toFixed(3)} ms, p95 ${timing.p95.toFixed(3)} ms, min ${timing.min.toFixed(3)} ms.`,
    'This is the SDK’s own work (eight stages, events, room wiring); a real call adds the HTTP round trip and Daily’s join.',
  ].join('\n');

  writeNamedSection('voice', section);
  console.log(section);
}

await main();
