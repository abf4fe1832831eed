/**
 * The stages of the start routine: each reported as started, then completed with its
 * duration or failed; every await races the call's abort signal, so stop() cancels at any stage.
 * @module
 */
import type { LiveCall } from './call.js';
import { messageOf, serializeError, StartCancelledError } from './errors.js';
import { now } from './events.js';
import type { CallStartProgressEvent, StartStage, VapiErrorType } from './types.js';

/** Rejects with the signal's reason as soon as it aborts. */
function race<T>(work: Promise<T> | T, signal: AbortSignal): Promise<T> {
  // Work abandoned by an abort may still fail later; that failure is expected, not unhandled.
  Promise.resolve(work).catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** An error raised inside a stage, tagged with the error event type it was already reported as. */
export class StageError extends Error {
  constructor(
    readonly stage: StartStage,
    readonly original: unknown,
  ) {
    super(messageOf(original));
    this.name = 'StageError';
  }
}

/**
 * The stage helpers of one start of `call`: `stage` runs one stage (rethrowing its failure as a
 * StageError, or the cancellation as it came), `optionalStage` one whose failure is reported but does
 * not stop the call; `currentStage` names the stage running or last run, for the failure report.
 */
export function stageRunner(call: LiveCall) {
  const signal = call.signal;
  let current: StartStage = 'initialization';

  const progress = (event: Omit<CallStartProgressEvent, 'timestamp'>) =>
    call.emit('call-start-progress', { ...event, timestamp: now() });
  const reportError = (type: VapiErrorType, stage: StartStage, error: unknown, duration?: number) =>
    call.emit('error', {
      type,
      stage,
      error: serializeError(error),
      timestamp: now(),
      ...(duration !== undefined ? { duration } : {}),
    });

  /** One stage: started, then completed with its duration, or failed (and rethrown). */
  async function stage<T>(
    name: StartStage,
    work: () => Promise<T> | T,
    options: {
      metadata?: Record<string, unknown>;
      errorType?: VapiErrorType;
      completed?: (value: T) => Record<string, unknown>;
    } = {},
  ): Promise<T> {
    current = name;
    progress({ stage: name, status: 'started', ...(options.metadata ? { metadata: options.metadata } : {}) });
    const t0 = Date.now();
    try {
      const value = await race(work(), signal);
      const metadata = options.completed?.(value);
      progress({
        stage: name,
        status: 'completed',
        duration: Date.now() - t0,
        ...(metadata ? { metadata } : {}),
      });
      return value;
    } catch (error) {
      const duration = Date.now() - t0;
      // Aborted: by stop() (a cancellation) or by the room ending or failing (already reported).
      const aborted = error instanceof StartCancelledError;
      const cancelled = aborted && error.byUser;
      progress({
        stage: name,
        status: 'failed',
        duration,
        metadata: cancelled ? { reason: 'cancelled', cause: error.message } : { error: messageOf(error) },
      });
      if (!aborted && options.errorType) reportError(options.errorType, name, error, duration);
      throw aborted ? error : new StageError(name, error);
    }
  }

  /** A stage whose failure is reported but does not stop the call. */
  async function optionalStage(
    name: StartStage,
    errorType: VapiErrorType,
    work: () => Promise<unknown> | unknown,
  ) {
    try {
      await stage(name, work, { errorType });
    } catch (error) {
      if (error instanceof StartCancelledError) throw error;
    }
  }

  return { stage, optionalStage, progress, currentStage: () => current };
}
