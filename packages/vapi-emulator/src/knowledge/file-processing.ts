/**
 * Uploaded files made ready when they are uploaded, as the provider's are: each file is 'processing'
 * until the extraction worker (document-worker.ts) has stored its passages ('done') or the reason
 * it has none ('failed'), one file at a time. Visitors' questions read the stored passages only
 * (local-assistant.ts), so no file is ever parsed on a request's path. Files left processing by a
 * stopped server are taken up again by `resume`.
 * @module
 */
import type { EmulatorQueryable } from '../db.js';
import type { DocumentWorker } from './document-worker.js';

/** A file that finished processing, for whoever waits on it (tests) and the log. */
export interface ProcessedFile {
  id: string;
  status: 'done' | 'failed';
  reason?: string;
}

export interface FileProcessing {
  /** Queues a stored file for extraction (once, however often asked). */
  enqueue(fileId: string): void;
  /** Records a file refused at upload (its content check failed): nothing is extracted. */
  refused(fileId: string, reason: string): void;
  /** Queues every file still processing, oldest first (after a restart). */
  resume(): Promise<void>;
  /** Resolves once nothing is queued or being processed. */
  idle(): Promise<void>;
}

export interface FileProcessingDeps {
  db: EmulatorQueryable;
  now: () => Date;
  worker: DocumentWorker;
  logger?:
    | {
        warn(msg: string, fields?: Record<string, unknown>): void;
        error(msg: string, fields?: Record<string, unknown>): void;
      }
    | undefined;
  onProcessed?: ((file: ProcessedFile) => void) | undefined;
}

export function createFileProcessing(deps: FileProcessingDeps): FileProcessing {
  const { db, worker, logger } = deps;
  const queued = new Set<string>();
  let tail: Promise<void> = Promise.resolve();

  const settle = (file: ProcessedFile) => {
    if (file.reason) logger?.warn('emulator: file not indexed', { fileId: file.id, reason: file.reason });
    deps.onProcessed?.(file);
  };

  const processOne = async (id: string) => {
    const { rows } = await db.query<{ original_name: string; content: Uint8Array }>(
      'select original_name, content from emulator_files where id = $1 and processed_at is null',
      [id],
    );
    if (!rows[0]) return;
    const outcome = await worker.process(rows[0].original_name, new Uint8Array(rows[0].content));
    if (!outcome) return;
    // A file deleted meanwhile, or settled by another instance, is left as it is.
    const { rowCount } = await db.query(
      `update emulator_files set parse_ok = $2, failure_reason = $3, passages = $4, processed_at = $5
       where id = $1 and processed_at is null`,
      [
        id,
        outcome.ok,
        outcome.ok ? null : outcome.reason,
        outcome.ok ? JSON.stringify(outcome.passages) : null,
        deps.now(),
      ],
    );
    if (rowCount)
      settle(outcome.ok ? { id, status: 'done' } : { id, status: 'failed', reason: outcome.reason });
  };

  const enqueue = (id: string) => {
    if (queued.has(id)) return;
    queued.add(id);
    tail = tail
      .then(() => processOne(id))
      .catch((error: unknown) =>
        logger?.error('emulator: file processing failed', { fileId: id, error: String(error) }),
      )
      .finally(() => queued.delete(id));
  };

  return {
    enqueue,
    refused: (id, reason) => settle({ id, status: 'failed', reason }),
    async resume() {
      const { rows } = await db.query<{ id: string }>(
        'select id from emulator_files where processed_at is null order by created_at, id',
      );
      for (const r of rows) enqueue(r.id);
    },
    async idle() {
      let seen: Promise<void>;
      do {
        seen = tail;
        await seen;
      } while (seen !== tail);
    },
  };
}
