// The rules for TOTP codes on one factor, pure so they can be tested on their own.
import * as OTPAuth from 'otpauth';

/** Wrong codes in a row a factor takes before verification backs off. */
export const FREE_FAILED_VERIFICATIONS = 5;
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 15 * 60_000;
const PERIOD_SECONDS = 30;

/**
 * How long verification of a factor waits after `failures` wrong codes in a row: nothing for the
 * first four, 30 s after the fifth, doubling with each further one up to 15 minutes. Six-digit
 * codes with one step either side leave three right answers in 10⁶; at this pace a guesser gets
 * fewer than a hundred tries a day.
 */
export function backoffMs(failures: number): number {
  if (failures < FREE_FAILED_VERIFICATIONS) return 0;
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - FREE_FAILED_VERIFICATIONS));
}

export function totpFor(secret: string, email: string, issuer: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * The time step of `code` if it is right at `nowMs` (one step of clock drift either way) and
 * newer than `lastStep`, the step of the factor's last accepted code; null otherwise. A code is
 * never accepted twice, not even on a new challenge within its window.
 */
export function acceptedStep(
  secret: string,
  code: string,
  nowMs: number,
  lastStep: number | null,
): number | null {
  const delta = totpFor(secret, '', 'x').validate({ token: code.trim(), window: 1, timestamp: nowMs });
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The answer to a right code whose time step was already accepted: the owner's own double entry. */
export const REUSED_CODE_MESSAGE =
  'This code was just used. Wait for the next code in your authenticator app and enter that one.';

/**
 * True when `code` is right at `nowMs` but its step is not newer than `lastStep`: it was already
 * accepted once. Refused all the same (and counted like any refused code), with its own words.
 */
export function isReusedCode(secret: string, code: string, nowMs: number, lastStep: number | null): boolean {
  if (lastStep === null) return false;
  const step = acceptedStep(secret, code, nowMs, null);
  return step !== null && step <= lastStep;
}
