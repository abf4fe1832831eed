import { isUnansweredReply, UNANSWERED_PHRASES } from '@engage/http-contract';
import { DONT_KNOW, NO_DOCUMENTS } from '@engage/vapi-emulator';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { buildPublicConfig } from '../site/public-config.js';

// The conversations page finds unanswered questions by these phrases: the embedded provider's own
// "I don't know" answers must stay among them, or its unanswered questions would go unseen.
describe('UNANSWERED_PHRASES', () => {
  it("recognises the local assistant's two answers for questions it could not answer", () => {
    expect(isUnansweredReply(DONT_KNOW)).toBe(true);
    expect(isUnansweredReply(NO_DOCUMENTS)).toBe(true);
  });

  it('recognises common forms whatever the case, apostrophe or spacing, and not answers', () => {
    expect(isUnansweredReply('Sorry —  I DON’T   KNOW the opening hours.')).toBe(true);
    expect(isUnansweredReply('I could not find anything about parking.')).toBe(true);
    expect(isUnansweredReply('From Answers.md: "Parking is free behind the building."')).toBe(false);
    expect(isUnansweredReply('Refunds are paid within 14 days.')).toBe(false);
    expect(UNANSWERED_PHRASES.length).toBeGreaterThan(2);
  });

  it('takes a list of its own (configured phrases) and ignores empty ones', () => {
    expect(isUnansweredReply('No idea, sorry.', ['no idea'])).toBe(true);
    expect(isUnansweredReply('Anything', [''])).toBe(false);
  });
});

describe('UNANSWERED_PHRASES (configuration)', () => {
  it('leaves the built-in list to the page when unset or blank', () => {
    expect(buildPublicConfig(parseConfig({})).conversations).toBeUndefined();
    expect(buildPublicConfig(parseConfig({ UNANSWERED_PHRASES: '' })).conversations).toBeUndefined();
  });

  it('tells the page the configured phrases, split at |, trimmed', () => {
    const config = parseConfig({ UNANSWERED_PHRASES: " No idea | I can't say ||" });
    expect(buildPublicConfig(config).conversations).toEqual({
      unansweredPhrases: ['No idea', "I can't say"],
    });
  });

  it('refuses a list with no phrase or with a phrase too long, at start-up', () => {
    expect(() => parseConfig({ UNANSWERED_PHRASES: ' | ' })).toThrow(/UNANSWERED_PHRASES/);
    expect(() => parseConfig({ UNANSWERED_PHRASES: 'x'.repeat(201) })).toThrow(/UNANSWERED_PHRASES/);
  });
});
