import { lazy, Suspense } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '@/lib/session';
import { needsSecondFactor } from '../aal';
import type { AuthTab } from './auth-card';
import { SessionSpinner } from './route-guard';

const AuthCard = lazy(() => import('./auth-card').then((m) => ({ default: m.AuthCard })));
const MfaChallenge = lazy(() => import('./mfa-challenge').then((m) => ({ default: m.MfaChallenge })));

/**
 * Where to go once signed in: `?next=` when it is a path of this site (never another origin:
 * `//host` and `/\host` are taken as one by browsers), else the home page.
 */
export function nextPath(search: URLSearchParams): string {
  const next = search.get('next') ?? '';
  return /^\/(?![/\\])/.test(next) ? next : '/';
}

const headings: Record<'signin' | 'signup', string> = {
  signin: 'Sign in',
  signup: 'Create your account',
};

/**
 * /sign-in and /sign-up: the auth card on a page of its own, which the navigation offers visitors
 *. A signed-in user goes on to `?next=` (or home); one with an authenticator app is asked
 * for its code first, as the route guard does.
 */
export function SignInPage({ tab }: { tab: Extract<AuthTab, 'signin' | 'signup'> }) {
  const { session, user, loading } = useSession();
  const [search] = useSearchParams();
  let content;
  if (loading) content = <SessionSpinner />;
  else if (user && needsSecondFactor(session))
    return (
      <Suspense fallback={<SessionSpinner />}>
        <MfaChallenge />
      </Suspense>
    );
  else if (user) return <Navigate to={nextPath(search)} replace />;
  // The page's heading says what the card is for: the card's own Welcome would say something else.
  else content = <AuthCard defaultTab={tab} header={false} />;
  return (
    <main
      className="flex min-h-[calc(100dvh-3.5rem)] items-center justify-center bg-slate-100 bg-cover bg-center px-4 py-12"
      style={{ backgroundImage: 'url(/auth-bg.svg)' }}
    >
      <div className="flex w-full max-w-md flex-col items-center gap-6">
        <h1 className="rounded-lg bg-white/85 px-5 py-3 text-2xl font-semibold tracking-tight text-slate-900 shadow-sm backdrop-blur">
          {headings[tab]}
        </h1>
        <Suspense fallback={<SessionSpinner />}>{content}</Suspense>
      </div>
    </main>
  );
}
