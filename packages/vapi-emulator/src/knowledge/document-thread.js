// Document extraction off the main thread (started by ./document-worker.ts): parsing a PDF or a
// .docx takes seconds of CPU and, for a hostile file, unbounded memory; here it runs under the
// worker's heap limit and is terminated past its time limit, while requests go on being answered.
// The extractor is TypeScript: tsx loads it here whether or not the server itself runs under tsx.
// Messages in: { id, name, bytes, limits }. Out: { ready } once loaded, then { id, outcome } or { id, error }.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { processDocument } = await tsImport('./process-document.ts', import.meta.url);

parentPort.on('message', async ({ id, name, bytes, limits }) => {
  try {
    parentPort.postMessage({ id, outcome: await processDocument(name, bytes, limits) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
parentPort.postMessage({ ready: true });
