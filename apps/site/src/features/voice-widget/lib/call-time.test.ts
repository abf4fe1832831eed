import { describe, expect, it } from 'vitest';
import { formatCallTime } from './call-time';

describe('formatCallTime', () => {
  it.each([
    [0, '0:00'],
    [999, '0:00'],
    [7_000, '0:07'],
    [65_400, '1:05'],
    [750_000, '12:30'],
    [3_725_000, '1:02:05'],
    [-5_000, '0:00'],
    [Number.NaN, '0:00'],
  ])('shows %d ms as %s', (ms, text) => {
    expect(formatCallTime(ms)).toBe(text);
  });
});
