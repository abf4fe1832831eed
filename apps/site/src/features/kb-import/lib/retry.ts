/** Statuses worth another attempt, as the provider's official SDK retries them. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Milliseconds to wait before retry number `retry` (0-based): the server's Retry-After when it sent
 * one (seconds or an HTTP date), else exponential backoff from 1 s, capped at 60 s, with up to 25 %
 * jitter so parallel lanes do not retry in lockstep.
 */
export function retryDelay(
  retry: number,
  retryAfter: string | null | undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const fromHeader = parseRetryAfter(retryAfter, now);
  if (fromHeader !== null) return Math.min(fromHeader, 60_000);
  const base = Math.min(1_000 * 2 ** retry, 60_000);
  return Math.round(base * (1 + random() * 0.25));
}

/** Retry-After as milliseconds from `now`, or null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1_000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
