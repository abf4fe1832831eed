/** Business constants of the import tool, in milliseconds unless named otherwise. */
export const POLL_MAX_ATTEMPTS = 20;
export const POLL_OVERALL_TIMEOUT_MS = 300_000;
/** the gap between two files; Engage keeps it per upload lane as the floor of its pacing. */
export const FILE_GAP_MS = 200;
export const DELETE_GAP_MS = 500;
export const DELETE_RATE_LIMIT_WAIT_MS = 2_000;
export const API_KEY_SAVE_DELAY_MS = 1_000;
export const ASSISTANT_SAVE_DELAY_MS = 500;
/** Uploads in flight at first; the queue grows it while answers come quickly (adaptive-limit.ts). */
export const UPLOAD_CONCURRENCY = 3;
/** The most uploads in flight at once, however quick the answers. */
export const MAX_UPLOAD_CONCURRENCY = 24;
/** Retries after the first attempt for 408, 429, 5xx and network failures (as the official SDK). */
export const MAX_RETRIES = 2;
/** Retries after a 429, each waiting what Retry-After asked for (the provider is pacing, not failing). */
export const RATE_LIMIT_RETRIES = 6;
/** The provider's largest file (10 MB; the emulator's DEFAULT_MAX_FILE_BYTES): bigger ones are refused when chosen. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_KB_NAME = 'knowledge-base';
export const DEFAULT_KB_DESCRIPTION = 'Custom knowledge base';

/** The polling interval before check number `attempt` (0-based): min(3000 + attempt*1000, 10000). */
export function pollDelay(attempt: number): number {
  return Math.min(3_000 + attempt * 1_000, 10_000);
}
