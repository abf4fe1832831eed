import { describe, expect, it } from 'vitest';
import { authText } from '../messages';
import { passkeyFailureText } from './auth-form-parts';

describe('passkeyFailureText', () => {
  it('says a refused verification in plain words, never the library’s', () => {
    const counter = {
      code: 'webauthn_verification_failed',
      message: 'WebAuthn verification failed: Response counter value 2 was lower than expected 2',
    };
    expect(passkeyFailureText(counter)).toBe(authText.passkeyCounterBehind);
    expect(passkeyFailureText(counter)).not.toMatch(/Response counter/);
    expect(
      passkeyFailureText({
        code: 'webauthn_verification_failed',
        message: 'WebAuthn verification failed: the signature did not verify',
      }),
    ).toBe(authText.passkeyNotVerified);
  });

  it('keeps the server’s own plain words for a passkey it does not know', () => {
    const unknown = {
      code: 'webauthn_verification_failed',
      message: 'WebAuthn verification failed: this passkey is not registered',
    };
    expect(passkeyFailureText(unknown)).toBe(unknown.message);
  });

  it('says a cancelled request as cancelled, and the server’s other refusals as it says them', () => {
    expect(passkeyFailureText({ cause: { name: 'NotAllowedError' } })).toBe(authText.passkeyCancelled);
    expect(passkeyFailureText({ code: 'webauthn_credential_not_found', message: 'Passkey not found' })).toBe(
      'Passkey not found',
    );
  });
});
