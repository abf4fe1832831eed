/** Statuses worth another attempt, as the provider's official SDK retries them. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Milliseconds to wait before retry number `retry` (0-based): what the server asked for with
 * Retry-After when it did, else exponential backoff from 1 s with up to 25 % jitter (so parallel
 * lanes do not retry in lockstep); never more than 60 s.
 */
export function retryDelay(
  retry: number,
  retryAfterMs?: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfterMs != null && Number.isFinite(retryAfterMs))
    return Math.min(Math.max(0, retryAfterMs), 60_000);
  const base = Math.min(1_000 * 2 ** retry, 60_000);
  return Math.min(Math.round(base * (1 + random() * 0.25)), 60_000);
}
