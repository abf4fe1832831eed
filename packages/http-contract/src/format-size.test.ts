import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size.js';

describe('formatSize (the one size display of both apps)', () => {
  it('shows bytes under 1024 as B, then KB, then MB with one decimal', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1024)).toBe('1.0 KB');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 * 1024 - 1)).toBe('1024.0 KB');
    expect(formatSize(1024 * 1024)).toBe('1.0 MB');
    expect(formatSize(5.25 * 1024 * 1024)).toBe('5.3 MB');
  });

  it('shows a dash, not NaN, for a size that is not one', () => {
    expect(formatSize(Number.NaN)).toBe('—');
    expect(formatSize(-1)).toBe('—');
    expect(formatSize(Number.POSITIVE_INFINITY)).toBe('—');
  });
});
