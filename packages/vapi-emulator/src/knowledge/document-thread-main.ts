// The document worker's thread (started by ./document-worker.ts): parsing a PDF or a .docx takes
// seconds of CPU and, for a hostile file, unbounded memory; here it runs under the worker's heap
// limit and is terminated past its time limit, while requests go on being answered.
// Messages in: { id, name, bytes, limits }. Out: { ready } once loaded, then { id, outcome } or { id, error }.
// The compiled server runs this file built as dist/document-thread.js; from sources, ./document-thread.js loads it.
import { parentPort } from 'node:worker_threads';
import { processDocument, type DocumentLimits } from './process-document.js';

interface Request {
  id: number;
  name: string;
  bytes: Uint8Array;
  limits: DocumentLimits;
}

const port = parentPort;
if (!port) throw new Error('document-thread-main runs as a worker thread only');

port.on('message', async ({ id, name, bytes, limits }: Request) => {
  try {
    port.postMessage({ id, outcome: await processDocument(name, bytes, limits) });
  } catch (error) {
    port.postMessage({ id, error: String((error as Error | undefined)?.message ?? error) });
  }
});
port.postMessage({ ready: true });
