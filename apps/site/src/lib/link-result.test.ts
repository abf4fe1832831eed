import { describe, expect, it } from 'vitest';
import { urlWithoutLinkResult } from './link-result';

describe('urlWithoutLinkResult', () => {
  it("drops a mail link's error or message fragment, keeping the path and query", () => {
    expect(
      urlWithoutLinkResult(
        'https://engage.example/kb-import?tab=files#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      ),
    ).toBe('https://engage.example/kb-import?tab=files');
    expect(urlWithoutLinkResult('https://engage.example/profile#message=Confirmation+link+accepted')).toBe(
      'https://engage.example/profile',
    );
    expect(urlWithoutLinkResult('https://engage.example/#error_description=expired')).toBe(
      'https://engage.example/',
    );
  });

  it('leaves a session fragment to auth-js, and any other URL alone', () => {
    expect(
      urlWithoutLinkResult('https://engage.example/#access_token=a&refresh_token=r&type=invite'),
    ).toBeNull();
    expect(urlWithoutLinkResult('https://engage.example/admin#section-2')).toBeNull();
    expect(urlWithoutLinkResult('https://engage.example/admin')).toBeNull();
  });
});
