import { describe, expect, it } from 'vitest';
import { spacedWords, spaceOut } from './letter-spacing';

describe('spaceOut', () => {
  it('spaces a phrase letter by letter without doubling word gaps', () => {
    expect(spaceOut('sales engineer')).toBe('s a l e s e n g i n e e r');
    expect(spaceOut('case.onboarding')).toBe('c a s e . o n b o a r d i n g');
  });

  it('keeps the words apart, for the wider gap between them', () => {
    expect(spacedWords(' sales  engineer ')).toEqual(['s a l e s', 'e n g i n e e r']);
    expect(spacedWords('case.onboarding')).toEqual(['c a s e . o n b o a r d i n g']);
  });
});
