/**
 * The one way Engage runs something on a schedule (pruning anonymous users and old conversations,
 * taking backups): first after `firstDelayMs` (at once without it), then every `everyMs`. A run due
 * or asked for while one is going joins it, so runs never overlap. A failed run is handed to
 * `onError` and the schedule goes on: a periodic job never stops the server. Timers do not keep the
 * process alive; `stop()` waits for a run in flight, so the database can be closed after it.
 * @module
 */

export interface PeriodicJobOptions<T> {
  /** The work; its result is what `runOnce` resolves to. */
  run: () => Promise<T>;
  /** Time between two runs' starts. */
  everyMs: number;
  /** Time before the first run (on a timer, even when 0); without it the first run starts at once. */
  firstDelayMs?: number;
  /** Told about a failed run; the next one is still due. */
  onError: (error: unknown) => void;
}

export interface PeriodicJob<T> {
  /** Runs now, or joins the run in flight; null when the run failed. */
  runOnce(): Promise<T | null>;
  /** No further runs; resolves once a run in flight has ended. */
  stop(): Promise<void>;
}

export function schedulePeriodic<T>(options: PeriodicJobOptions<T>): PeriodicJob<T> {
  let running: Promise<T | null> | null = null;
  let first: ReturnType<typeof setTimeout> | undefined;
  let every: ReturnType<typeof setInterval> | undefined;

  const runOnce = (): Promise<T | null> =>
    (running ??= options
      .run()
      .catch((error: unknown) => {
        options.onError(error);
        return null;
      })
      .finally(() => {
        running = null;
      }));

  const start = () => {
    void runOnce();
    // A tick while a run is still going joins it: runs never overlap.
    every = setInterval(() => void runOnce(), options.everyMs);
    every.unref?.();
  };
  if (options.firstDelayMs === undefined) start();
  else {
    first = setTimeout(start, options.firstDelayMs);
    first.unref?.();
  }

  return {
    runOnce,
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
