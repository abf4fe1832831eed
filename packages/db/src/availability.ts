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
 * admin/crash shutdown, "cannot connect now" (starting up), and too many connections; and of one
 * too slow to answer: a statement cancelled by its timeout (57014) or a lock waited on past
 * lock_timeout (55P03). A caller cannot tell a table locked for minutes from a stopped server, and
 * either way the request should be retried later, not reported as a bug.
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P01|57P02|57P03|53300|57014|55P03)$/;

/** node-postgres's own messages for a lost or never-made connection, and its query timeout. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)/;

/**
 * True when `error` says the database is unreachable (stopped, restarting, network down, or too slow
 * to answer within the statement, lock or pool timeouts), as opposed to a query that failed on a
 * working database. A route that expects a lock wait to run out (a busy assistant) answers it
 * itself, below 500, and keeps its answer.
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
