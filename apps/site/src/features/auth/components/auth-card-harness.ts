import { afterEach, beforeEach, vi } from 'vitest';

// Shared setup of the AuthCard tests (auth-card*.test.tsx): the mocked auth client, which each file
// installs with `vi.mock('@/lib/session', async () => (await import('./auth-card-harness')).sessionMock)`.

export const auth = {
  signInWithPassword: vi.fn(),
  signUp: vi.fn(),
  resetPasswordForEmail: vi.fn(),
  signInWithOtp: vi.fn(),
  verifyOtp: vi.fn(),
  resend: vi.fn(),
  signInWithPasskey: vi.fn(),
};

export const sessionMock = { useSupabase: () => async () => ({ auth }) };

beforeEach(() => {
  vi.clearAllMocks();
  window.location.hash = '';
});
afterEach(() => {
  vi.useRealTimers();
});
