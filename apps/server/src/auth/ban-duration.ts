// GoTrue's ban_duration: a Go duration, checked once, with a typed reason when it is refused.
import { authErrors } from './errors.js';

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** The longest ban: Go's longest duration (2562047h, about 292 years), past which GoTrue refuses too. */
export const MAX_BAN_HOURS = 2_562_047;
export const BAN_TOO_LONG_MESSAGE = `A ban can last at most ${MAX_BAN_HOURS}h (about 292 years); 876000h is 100 years.`;

/** Why GoTrue refuses a ban duration: not a Go duration, or longer than MAX_BAN_HOURS. */
export type BanDurationProblem = 'format' | 'too_long';

/** A ban duration in milliseconds, null for "none", or why it is refused. */
function readBanDuration(value: string): number | null | BanDurationProblem {
  if (value === 'none') return null;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let end = 0;
  for (let match = part.exec(value); match; match = part.exec(value)) {
    total += Number(match[1]) * (DURATION_UNITS[match[2] as string] as number);
    end = part.lastIndex;
  }
  if (!value || end !== value.length) return 'format';
  // Its end would be no date ("Invalid time value").
  if (!(total <= MAX_BAN_HOURS * 3_600_000)) return 'too_long';
  return total;
}

/** Why a ban duration would be refused, or null when GoTrue would take it. */
export function banDurationProblem(value: string): BanDurationProblem | null {
  const read = readBanDuration(value);
  return typeof read === 'string' ? read : null;
}

/**
 * GoTrue's ban_duration: a Go duration ("24h", "90m", "1h30m", "2.5h") in milliseconds, or null for
 * "none" (lifts a ban). Anything else is 400 `validation_failed`, and so is a ban longer than
 * MAX_BAN_HOURS.
 */
export function parseBanDuration(value: string): number | null {
  const read = readBanDuration(value);
  if (read === 'format') throw authErrors.validation('invalid format for ban duration');
  if (read === 'too_long') throw authErrors.validation(BAN_TOO_LONG_MESSAGE);
  return read;
}
