import { Loader2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { clearAssuranceDemand, useAssuranceDemand } from '@/lib/assurance';
import { useSession } from '@/lib/session';
import { assuranceStep, tokenAal } from '../aal';
import { authText } from '../messages';

// The card (Radix tabs, forms) loads only when somebody has to sign in: a signed-in visitor of a
// protected page never downloads it. A prerendered page hydrates it in place (its nodes, and what
// the visitor typed into them meanwhile, are kept): main.tsx loads it first, so hydration does not
// suspend.
type Card = ComponentType<{ shell?: boolean }>;
let loadedCard: Card | undefined;
const loadCard = () =>
  import('./auth-card').then((m) => {
    loadedCard = m.AuthCard;
    return { default: m.AuthCard };
  });
const LazyCard = lazy(loadCard);
/** Starts loading the auth card; resolves once it can render without suspending. */
export const preloadAuthCard = (): Promise<unknown> => loadCard();

function AuthCard({ shell }: { shell: boolean }) {
  // A card loaded already renders at once; the choice is fixed per mount.
  const [Card] = useState<Card>(() => loadedCard ?? LazyCard);
  return <Card shell={shell} />;
}
const MfaChallenge = lazy(() => import('./mfa-challenge').then((m) => ({ default: m.MfaChallenge })));
const MfaEnrolmentRequired = lazy(() =>
  import('./mfa-enrol').then((m) => ({ default: m.MfaEnrolmentRequired })),
);

/** The auth card's height with its sign-in tab on a phone (380 px wide: 487 px), and a little more. */
const CARD_HEIGHT = 'min-h-[30.5rem]';

/**
 * The Protected Resource screen: its text and the auth card over a background image.
 * As part of the prerendered shell (`shell`), styles.css hides it unless public/session-hint.js found
 * no stored session. The card is in the shell too, so a visitor can type at once: the page's inline
 * loader keeps its forms from submitting natively until their code runs (scripts/prerender/loader.mjs),
 * and the press of a button is replayed then.
 */
export function ProtectedResource({ shell = false }: { shell?: boolean }) {
  return (
    <main
      data-guard=""
      className={`${shell ? 'guard-signed-out ' : ''}relative flex min-h-[calc(100dvh-3.5rem)] items-center justify-center bg-slate-100 bg-cover bg-center px-4 py-12`}
      style={{ backgroundImage: 'url(/auth-bg.svg)' }}
    >
      <div className="flex w-full max-w-md flex-col items-center gap-6">
        <div className="rounded-lg bg-white/85 px-5 py-4 text-center shadow-sm backdrop-blur">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{authText.protectedTitle}</h1>
          <p className="mt-2 text-sm text-slate-700">{authText.protectedBody}</p>
        </div>
        {/* The card's place keeps about the card's height while its code loads: the text above is
            centred with it, and moved up when the card replaced a shorter spinner (a layout shift). */}
        <div className={`grid w-full items-start ${CARD_HEIGHT}`}>
          <Suspense fallback={<SessionSpinner minHeight={CARD_HEIGHT} />}>
            <AuthCard shell={shell} />
          </Suspense>
        </div>
      </div>
    </main>
  );
}

/** Shown while the session is decided (or, on a prerendered page, until the page's code runs). */
export function SessionSpinner({
  className = '',
  minHeight = 'min-h-[50dvh]',
  guard = false,
}: {
  className?: string;
  minHeight?: string;
  /** Part of a guarded page's shell, which src/app/islands/main.ts replaces with the page. */
  guard?: boolean;
}) {
  return (
    <div
      role="status"
      data-guard={guard ? '' : undefined}
      className={`${className} flex ${minHeight} items-center justify-center`.trim()}
    >
      <Loader2 className="size-8 animate-spin text-slate-500" aria-hidden="true" />
      <span className="sr-only">Loading your session…</span>
    </div>
  );
}

function AdminsOnly() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Administrators only</h1>
      <p className="mt-3 text-muted-foreground">Your account does not have access to this page.</p>
    </main>
  );
}

/**
 * The route guard: a spinner while the session is decided, the page when signed in, otherwise
 * the Protected Resource screen. With `requireAdmin`, a signed-in non-admin sees a short refusal
 * (the server enforces the same rule on /api/admin).
 */
export function RouteGuard({
  children,
  requireAdmin = false,
}: {
  children?: ReactNode;
  requireAdmin?: boolean;
}) {
  const { session, user, isAdmin, loading, error, prerender } = useSession();
  const demand = useAssuranceDemand();
  const aal2 = session ? tokenAal(session.access_token) === 'aal2' : false;
  // The server's demand is met once the session is aal2 (the code was entered, or an app enrolled).
  useEffect(() => {
    if (demand && (aal2 || !session)) clearAssuranceDemand();
  }, [demand, aal2, session]);
  if (prerender || (!user && !loading && !error)) {
    // The same HTML goes to everybody before any script runs: no protected content, and the two
    // possible screens, between which styles.css picks from <html data-session> (docs/decisions.md).
    // A visitor without a session keeps the very screen hydrated (the same two places), so what they
    // typed into the card stays.
    return (
      <>
        {prerender ? <SessionSpinner className="guard-pending" guard /> : null}
        <ProtectedResource shell={prerender} />
      </>
    );
  }
  if (error) {
    return (
      <main className="mx-auto max-w-xl px-4 py-16 text-center" role="alert">
        <h1 className="text-2xl font-semibold">Sign-in is unavailable</h1>
        <p className="mt-3 text-muted-foreground">
          The sign-in component could not be loaded ({error}). Check your connection, then reload the page.
        </p>
      </main>
    );
  }
  if (loading || !user) return <SessionSpinner />;
  // A verified authenticator app and a password-only session (aal1): the code first,
  // also when only the server knew of the app (its 403 mfa_required). The page mounts
  // again afterwards, so its requests are made again with the aal2 token.
  const step = assuranceStep(session, demand);
  if (step)
    return (
      <Suspense fallback={<SessionSpinner />}>
        {step === 'code' ? <MfaChallenge /> : <MfaEnrolmentRequired />}
      </Suspense>
    );
  if (requireAdmin && !isAdmin) return <AdminsOnly />;
  return children ?? <Outlet />;
}
