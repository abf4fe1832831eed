import { describe, expect, it } from 'vitest';
import { banLength } from './recent-activity';

describe('banLength', () => {
  it('says a ban’s Go duration in words', () => {
    expect(banLength('24h')).toBe('24 hours');
    expect(banLength('1h')).toBe('1 hour');
    expect(banLength('168h')).toBe('7 days');
    expect(banLength('720h')).toBe('30 days');
    expect(banLength('876000h')).toBe('100 years');
    expect(banLength('90m')).toBe('90m');
  });
});
