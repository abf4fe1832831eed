/**
 * The extraction worker (./document-thread.js): one thread that turns uploaded files into passages
 * (process-document.ts), one file at a time, under a heap limit, terminated when a file takes longer
 * than the time limit or runs out of memory (the file then fails, saying so) and started afresh for
 * the next. It is stopped after a while without work, as its parsers hold memory.
 * @module
 */
import { Worker } from 'node:worker_threads';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits, type DocumentOutcome } from './process-document.js';

export interface WorkerLimits {
  /** Time one file may take; past it the worker is terminated and the file fails. */
  timeoutMs: number;
  /** The worker's heap, in MB; a file needing more fails. */
  maxMemoryMb: number;
}

export const DEFAULT_WORKER_LIMITS: WorkerLimits = { timeoutMs: 30_000, maxMemoryMb: 512 };

export interface DocumentWorkerOptions {
  limits?: Partial<DocumentLimits & WorkerLimits>;
  /** The worker's script (tests give one that never answers, or one that fills its heap). */
  script?: URL;
  /** An idle worker is stopped after this long. Default 10 s. */
  idleMs?: number;
}

export interface DocumentWorker {
  /** The file's passages or why it has none; null when the worker was closed meanwhile. */
  process(name: string, bytes: Uint8Array): Promise<DocumentOutcome | null>;
  close(): Promise<void>;
}

interface Reply {
  id?: number;
  ready?: boolean;
  outcome?: DocumentOutcome;
  error?: string;
}

const failed = (reason: string): DocumentOutcome => ({ ok: false, reason });

export function createDocumentWorker(options: DocumentWorkerOptions = {}): DocumentWorker {
  const { timeoutMs, maxMemoryMb, ...documentLimits } = {
    ...DEFAULT_DOCUMENT_LIMITS,
    ...DEFAULT_WORKER_LIMITS,
    ...options.limits,
  };
  const script = options.script ?? new URL('./document-thread.js', import.meta.url);
  let worker: Promise<Worker> | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;
  let closed = false;

  const stop = () => {
    const current = worker;
    worker = null;
    void current?.then((w) => w.terminate()).catch(() => undefined);
  };

  const start = (): Promise<Worker> => {
    const started = new Promise<Worker>((resolve, reject) => {
      const w = new Worker(script, {
        resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 32 },
      });
      w.unref();
      w.once('message', (m: Reply) => (m.ready ? resolve(w) : reject(new Error('no ready message'))));
      // Kept for the worker's life: an idle worker's error must not go unheard (it would throw).
      w.on('error', reject);
      w.on('exit', () => {
        if (worker === started) worker = null;
        reject(new Error('the worker stopped while starting'));
      });
    });
    return started;
  };

  const run = (w: Worker, name: string, bytes: Uint8Array) =>
    new Promise<DocumentOutcome>((resolve) => {
      const id = ++nextId;
      const done = (outcome: DocumentOutcome, broken: boolean) => {
        clearTimeout(timer);
        w.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (broken) stop();
        resolve(outcome);
      };
      const onMessage = (m: Reply) => {
        if (m.id === id) done(m.outcome ?? failed(`it could not be read (${m.error})`), false);
      };
      const onError = (e: Error & { code?: string }) =>
        done(
          failed(
            e.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `reading it needed more than ${maxMemoryMb} MB of memory`
              : `it could not be read (${e.message})`,
          ),
          true,
        );
      const onExit = () => done(failed('the extraction worker stopped while reading it'), true);
      const timer = setTimeout(
        () => done(failed(`reading it took longer than ${timeoutMs / 1000} s`), true),
        timeoutMs,
      );
      w.on('message', onMessage).on('error', onError).on('exit', onExit);
      const copy = new Uint8Array(bytes);
      w.postMessage({ id, name, bytes: copy, limits: documentLimits }, [copy.buffer]);
    });

  const processOne = async (name: string, bytes: Uint8Array): Promise<DocumentOutcome | null> => {
    if (closed) return null;
    clearTimeout(idle);
    worker ??= start();
    let w: Worker;
    try {
      w = await worker;
    } catch (error) {
      worker = null;
      return failed(`the extraction worker could not start (${(error as Error).message})`);
    }
    const outcome = await run(w, name, bytes);
    idle = setTimeout(stop, options.idleMs ?? 10_000).unref();
    return closed ? null : outcome;
  };

  return {
    process(name, bytes) {
      const result = tail.then(() => processOne(name, bytes));
      tail = result.catch(() => undefined);
      return result;
    },
    async close() {
      closed = true;
      clearTimeout(idle);
      stop();
      await tail;
    },
  };
}
