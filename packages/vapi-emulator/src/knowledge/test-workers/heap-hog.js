// A document worker whose parser keeps everything it reads on the heap (a bomb that fits no cap).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  const kept = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => ({ i })));
});
parentPort.postMessage({ ready: true });
