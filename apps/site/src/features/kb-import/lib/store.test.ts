import { describe, expect, it } from 'vitest';
import { providerReason } from './store';

describe("the provider's reasons", () => {
  it("takes the provider's reason out of its error body", () => {
    expect(providerReason('{"statusCode":400,"message":"Invalid file: empty","error":"Bad Request"}')).toBe(
      'Invalid file: empty',
    );
    expect(providerReason('{"message":["purpose must be a string","name too long"]}')).toBe(
      'purpose must be a string; name too long',
    );
    expect(providerReason('upstream timeout')).toBe('upstream timeout');
    expect(providerReason('x'.repeat(1000))).toHaveLength(300);
  });
});
