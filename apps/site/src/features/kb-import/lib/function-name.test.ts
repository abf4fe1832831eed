import { describe, expect, it } from 'vitest';
import { toFunctionName } from './function-name';

describe('toFunctionName', () => {
  it('replaces every character other than a letter or digit with a hyphen', () => {
    expect(toFunctionName('knowledge-base')).toBe('knowledge-base');
    expect(toFunctionName('My KB: v2.0 (é)')).toBe('My-KB--v2-0----');
    expect(toFunctionName('abc123')).toBe('abc123');
  });
});
