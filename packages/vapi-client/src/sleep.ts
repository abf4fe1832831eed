/**
 * The one abortable wait of the workspace (the client's retry backoff, the voice SDK's mobile
 * permission delay, and the knowledge-base import's pacing: its upload gaps, its bulk delete's
 * gaps and 429 waits, and its listings' retry waits, each with the tool's signal).
 * @module
 */

/** What an aborted wait rejects with: the signal's reason, or an AbortError when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Resolves after `ms`, or rejects with the signal's reason (an `AbortError` by default) as soon as
 * `signal` aborts, clearing its timer. An already aborted signal rejects at once.
 * @example
 * await sleep(backoffMs, options.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
