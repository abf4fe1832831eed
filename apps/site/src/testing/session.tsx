import type { Session, User } from '@supabase/auth-js';
import type { ReactNode } from 'react';
import { vi, type Mock } from 'vitest';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { SessionProvider } from '@/lib/session';
import { emptySession, type SessionSource, type SessionState } from '@/lib/session-store';
import type { SupabaseClient } from '@/lib/supabase';

/** A session state for a test, from the parts it cares about. */
export type TestSessionState = Partial<SessionState>;

export interface TestSession extends SessionSource {
  /** Changes the session the components see (a sign-in, a sign-out, an ended session). */
  set(next: TestSessionState): void;
  readonly dismissEnded: Mock<() => void>;
  readonly endPasswordRecovery: Mock<() => void>;
  readonly confirm: Mock<() => void>;
}

/**
 * A session a component test sets, given to the components through lib/session.tsx's
 * SessionProvider (`render(ui, { wrapper: withSession(session) })`): the state it says (or, given a
 * function, whatever it returns at each render), and an auth client made of the methods the test
 * gives (`{ signInWithPassword: vi.fn() … }`).
 */
export function testSession(
  initial: TestSessionState | (() => TestSessionState) = {},
  auth: object = {},
): TestSession {
  let read = typeof initial === 'function' ? initial : () => initial;
  // The same state object while the test's part is the same: useSyncExternalStore needs stable snapshots.
  let part: TestSessionState | null = null;
  let full: SessionState = emptySession;
  const snapshot = () => {
    const now = read();
    if (now !== part) {
      part = now;
      full = { ...emptySession, ...now };
    }
    return full;
  };
  const client = { auth } as unknown as SupabaseClient;
  const listeners = new Set<() => void>();
  return {
    start: () => {},
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: snapshot,
    getServerSnapshot: snapshot,
    loadClient: async () => client,
    confirm: vi.fn<() => void>(),
    dismissEnded: vi.fn<() => void>(),
    endPasswordRecovery: vi.fn<() => void>(),
    set(next) {
      read = () => next;
      for (const listener of [...listeners]) listener();
    },
  };
}

/** The embedded services' public configuration, for the components a test renders. */
export const testPublicConfig: PublicConfig = {
  siteTitle: 'Engage',
  ownerDomain: 'engage.example',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: 'pk', serverHoldsPrivateKey: true, embedded: true },
};

/**
 * A wrapper for Testing Library's render that gives the components `session` (and a public
 * configuration, which a test may give again inside).
 */
export function withSession(session: SessionSource, config: PublicConfig = testPublicConfig) {
  return function WithSession({ children }: { children: ReactNode }) {
    return (
      <PublicConfigContext.Provider value={config}>
        <SessionProvider value={session}>{children}</SessionProvider>
      </PublicConfigContext.Provider>
    );
  };
}

/** A signed-in state for `testSession`: the user, their session, and admin when their role says so. */
export function signedIn(user: Partial<User>, session: Partial<Session> = {}): TestSessionState {
  const full = { id: 'u1', app_metadata: {}, user_metadata: {}, aud: 'authenticated', ...user } as User;
  return {
    user: full,
    session: { access_token: 'token', user: full, ...session } as Session,
    isAdmin: full.app_metadata?.role === 'admin',
  };
}
