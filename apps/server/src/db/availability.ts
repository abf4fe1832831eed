import { AsyncLocalStorage } from 'node:async_hooks';

/** Network errors meaning the database cannot be reached at all. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is down, starting or shutting down: connection exceptions (class 08),
 * admin/crash shutdown, "cannot connect now" (starting up), and too many connections.
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P01|57P02|57P03|53300)$/;

/** node-postgres's own messages for a lost or never-made connection, and its query timeout. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)/;

/**
 * True when `error` says the database is unreachable (stopped, restarting, network down, or too slow
 * to answer within the pool's timeouts), as opposed to a query that failed on a working database.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
  if (UNAVAILABLE_MESSAGES.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1)))
    return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}

/** One request's record of whether a query of it found the database unavailable. */
interface Watch {
  unavailable: boolean;
}

const watches = new AsyncLocalStorage<Watch>();

/**
 * Runs `fn` (a request's handling) while recording whether any query in it failed because the
 * database was unavailable, even if a route's own error handler turned that failure into a 500.
 */
export async function watchDatabase<T>(fn: () => Promise<T>): Promise<{ result: T; unavailable: boolean }> {
  const watch: Watch = { unavailable: false };
  const result = await watches.run(watch, fn);
  return { result, unavailable: watch.unavailable };
}

/** Called by the database module on every failed query: notes an outage for the current request. */
export function noteDatabaseError(error: unknown): void {
  const watch = watches.getStore();
  if (watch && isDatabaseUnavailable(error)) watch.unavailable = true;
}
