/** What the rooms need of Node that differs between versions or is set up once. */

/**
 * `@hono/node-ws` reports socket errors (an oversized frame, a broken connection) as an `ErrorEvent`,
 * a global only from Node 22; on Node 20 the error would surface as a ReferenceError on the console
 * instead of reaching the room. A minimal stand-in until Node 20 is dropped.
 */
export function ensureErrorEvent(): void {
  if (typeof globalThis.ErrorEvent === 'function') return;
  class NodeErrorEvent extends Event {
    readonly error: unknown;
    readonly message: string;
    constructor(type: string, init: { error?: unknown; message?: string } = {}) {
      super(type);
      this.error = init.error;
      this.message = init.message ?? String((init.error as Error | undefined)?.message ?? '');
    }
  }
  (globalThis as { ErrorEvent?: unknown }).ErrorEvent = NodeErrorEvent;
}

/** The default room clock: real time, never keeping the process alive on its own. */
export function everyInterval(tick: () => void, everyMs: number): () => void {
  const timer = setInterval(tick, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
