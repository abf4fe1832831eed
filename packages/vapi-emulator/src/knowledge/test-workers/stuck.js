// A document worker that takes every file and never answers (a parser caught in a loop).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  for (;;);
});
parentPort.postMessage({ ready: true });
