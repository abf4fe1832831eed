/**
 * The product's one retry policy for the provider: which failures are worth another attempt, and how
 * long to wait before it. The requester's `retry` option and the import tool's long-running lanes
 * both follow it.
 * @module
 */
import { isVapiApiError, isVapiNetworkError } from './errors.js';

/** Statuses worth another attempt, as the provider's official SDK retries them: 408, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A failure worth another attempt: a retryable status, or no answer at all. */
export function isRetryableError(error: unknown): boolean {
  return isVapiNetworkError(error) || (isVapiApiError(error) && isRetryableStatus(error.status));
}

/** The provider pacing us (429): callers give it its own, larger budget. */
export function isRateLimited(error: unknown): boolean {
  return isVapiApiError(error) && error.status === 429;
}

export interface BackoffOptions {
  /** First backoff delay in ms (default 1000); it doubles each retry. */
  minDelayMs?: number;
  /** Upper bound for any single wait, Retry-After included (default 60000). */
  maxDelayMs?: number;
  /** Up to this share of random jitter on computed backoffs (default 0.25), so lanes do not retry in lockstep. */
  jitter?: number;
  random?: () => number;
}

/**
 * Milliseconds to wait before retry number `retry` (0-based): what the server asked for with
 * Retry-After (or X-RateLimit-Reset) when it did, else exponential backoff with jitter; never more
 * than the maximum.
 */
export function retryDelay(
  retry: number,
  retryAfterMs?: number | null,
  { minDelayMs = 1_000, maxDelayMs = 60_000, jitter = 0.25, random = Math.random }: BackoffOptions = {},
): number {
  if (retryAfterMs != null && Number.isFinite(retryAfterMs))
    return Math.min(Math.max(0, retryAfterMs), maxDelayMs);
  const base = Math.min(minDelayMs * 2 ** retry, maxDelayMs);
  return Math.min(Math.round(base * (1 + random() * jitter)), maxDelayMs);
}

/** What an error asked for with Retry-After, if anything. */
export const retryAfterOf = (error: unknown): number | null =>
  isVapiApiError(error) ? (error.retryAfterMs ?? null) : null;
