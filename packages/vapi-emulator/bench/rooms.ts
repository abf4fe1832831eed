// `npm run bench:rooms`: 1, 10 and 50 concurrent echo rooms on loopback. Each caller streams real-time
// 20 ms PCM frames: utterances of 1 s with 2.5 s of silence between them. Reports the rooms process's
// CPU and memory per room, and the latency from the end of an utterance (its last voiced frame sent)
// to the first echoed frame received: p50/p95, and the same minus the 700 ms silence the VAD waits for.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { writeNamedSection } from '@engage/bench-doc';
import WebSocket from 'ws';
import { encodePcm } from '../src/rooms/pcm.js';
import { frames, silence, tone } from '../src/rooms/testing.js';

const RATE = 16_000;
const FRAME_MS = 20;
const UTTERANCES = Number(process.env.BENCH_UTTERANCES ?? 4);
const SIZES = (process.env.BENCH_ROOMS ?? '1,10,50').split(',').map(Number);
const VAD_SILENCE_MS = 700;

interface Stats {
  cpu: { user: number; system: number };
  memory: { rss: number; heapUsed: number; arrayBuffers: number };
  rooms: { rooms: number };
}

const here = import.meta.dirname;
const child = spawn(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', '--expose-gc', path.join(here, 'rooms-server.ts')],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
const { port } = JSON.parse(line) as { port: number };
const base = `127.0.0.1:${port}`;
const stats = async (): Promise<Stats> => (await fetch(`http://${base}/stats`)).json() as Promise<Stats>;

const utterance = frames(tone(1000, RATE, 0.3), FRAME_MS, RATE).map(encodePcm);
const gap = frames(silence(2500, RATE), FRAME_MS, RATE).map(encodePcm);
// Starts with 500 ms of silence: the assistant does not listen in the 250 ms after it stops speaking.
const lead = frames(silence(500, RATE), FRAME_MS, RATE).map((frame) => ({
  frame: encodePcm(frame),
  lastVoiced: false,
}));
const script = [
  ...lead,
  ...[...Array(UTTERANCES)].flatMap(() => [
    ...utterance.map((f, i) => ({ frame: f, lastVoiced: i === utterance.length - 1 })),
    ...gap.map((f) => ({ frame: f, lastVoiced: false })),
  ]),
];

class Caller {
  ws: WebSocket;
  greeted: Promise<void>;
  lastVoicedAt: number | null = null;
  latencies: number[] = [];

  constructor(id: string) {
    this.ws = new WebSocket(`ws://${base}/rooms/${id}`);
    let greeted!: () => void;
    this.greeted = new Promise((r) => (greeted = r));
    this.ws.on('message', (data, isBinary) => {
      if (!isBinary) {
        const m = JSON.parse(String(data)) as { type: string; status?: string; role?: string };
        if (m.type === 'speech-update' && m.status === 'stopped' && m.role === 'assistant') greeted();
        return;
      }
      if (this.lastVoicedAt !== null) {
        this.latencies.push(performance.now() - this.lastVoicedAt);
        this.lastVoicedAt = null;
      }
    });
  }
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const kb = (bytes: number) => (bytes / 1024).toFixed(0);

// Warm-up: the first room synthesises the greeting once per process.
{
  const warm = new Caller('warm-up');
  await warm.greeted;
  warm.ws.close();
  await once(warm.ws, 'close');
}

const rows: string[] = [];
for (const n of SIZES) {
  const before = await stats();
  const callers = [...Array(n)].map((_, i) => new Caller(`bench-${n}-${i}`));
  await Promise.all(callers.map((c) => c.greeted));
  const opened = await stats();
  const cpuStart = await stats();
  const started = performance.now();
  // One clock for every caller, on an absolute schedule, so the load generator does not drift.
  let memoryPeak = 0;
  let held = 0;
  for (let i = 0; i < script.length; i++) {
    const due = started + i * FRAME_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const { frame, lastVoiced } = script[i]!;
    for (const c of callers) {
      c.ws.send(frame);
      if (lastVoiced) c.lastVoicedAt = performance.now();
    }
    if (i % 100 === 0) {
      // Mid-stream, after a GC: what the rooms hold (heap objects and audio buffers) while working.
      const { memory } = await stats();
      memoryPeak = Math.max(memoryPeak, memory.rss);
      held = Math.max(
        held,
        memory.heapUsed + memory.arrayBuffers - before.memory.heapUsed - before.memory.arrayBuffers,
      );
    }
  }
  const cpuEnd = await stats();
  const wall = performance.now() - started;
  const cpuMs = (cpuEnd.cpu.user + cpuEnd.cpu.system - cpuStart.cpu.user - cpuStart.cpu.system) / 1000;
  const latencies = callers.flatMap((c) => c.latencies);
  const missing = n * UTTERANCES - latencies.length;
  for (const c of callers) c.ws.close();
  await Promise.all(callers.map((c) => once(c.ws, 'close')));
  const after = await stats();
  const row = {
    rooms: n,
    cpuPctPerRoom: ((cpuMs / wall) * 100) / n,
    rssRiseBytes: Math.max(0, Math.max(memoryPeak, opened.memory.rss) - before.memory.rss),
    heldPerRoomBytes: Math.max(0, held) / n,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    echoes: latencies.length,
    missing,
    roomsLeft: after.rooms.rooms,
  };
  rows.push(
    `| ${n} | ${row.cpuPctPerRoom.toFixed(2)} % | ${kb(row.heldPerRoomBytes)} kB | ${mb(row.rssRiseBytes)} MB | ` +
      `${row.p50.toFixed(0)} ms (${(row.p50 - VAD_SILENCE_MS).toFixed(0)}) | ${row.p95.toFixed(0)} ms (${(row.p95 - VAD_SILENCE_MS).toFixed(0)}) | ${row.echoes}/${n * UTTERANCES} |`,
  );
}
child.kill('SIGTERM');

const date = new Date().toISOString().slice(0, 10);
const section = [
  '## Call rooms (`npm run bench:rooms`)',
  '',
  `Measured ${date}, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end ` +
    '(other work on the machine inflates CPU figures). The rooms run alone in a child process; the callers run in the ' +
    `parent over loopback WebSockets, each streaming real-time 20 ms frames of 16 kHz PCM: ${UTTERANCES} utterances of 1 s ` +
    'with 2.5 s of silence between them, after the greeting.',
  '',
  '| rooms | CPU per room | held per room | RSS rise (all rooms) | echo latency p50 (minus the 700 ms silence) | p95 (minus 700 ms) | echoes |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  'Latency: from the caller sending the last voiced frame of an utterance to its first echoed frame. The echo assistant',
  'must hear 700 ms of silence before it answers (the end of the utterance), so the figure in brackets is what the',
  'server adds beyond that wait. CPU: the rooms process’s user + system time over the streaming phase, divided by the',
  'wall time and the number of rooms. Held per room: heap plus array buffers (audio) after a forced GC while streaming,',
  'above the idle process, divided by the number of rooms. RSS rise: the process’s peak RSS while streaming over idle.',
].join('\n');

writeNamedSection('rooms', section);
console.log(section);
