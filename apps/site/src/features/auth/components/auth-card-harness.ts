import { afterEach, beforeEach, vi } from 'vitest';
import { testSession, withSession } from '@/testing/session';

// Shared setup of the AuthCard tests (auth-card*.test.tsx): the auth client's methods as mocks,
// given to the card as a signed-out session's client (render with `{ wrapper }`).

export const auth = {
  signInWithPassword: vi.fn(),
  signUp: vi.fn(),
  resetPasswordForEmail: vi.fn(),
  signInWithOtp: vi.fn(),
  verifyOtp: vi.fn(),
  resend: vi.fn(),
  signInWithPasskey: vi.fn(),
};

export const wrapper = withSession(testSession({}, auth));

beforeEach(() => {
  vi.clearAllMocks();
  window.location.hash = '';
});
afterEach(() => {
  vi.useRealTimers();
});
