import { StrictMode, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useLocation } from 'react-router';
import { OptionalPart } from '@/app/optional-part';
import { UserMenu } from '@/features/auth/components/user-menu';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { GUARDED_CONTENT } from './guarded-page';

/**
 * On a static page a link followed inside an island loads its page in full: nothing here renders
 * the other routes. The router has already put the new URL in place, so a reload loads it.
 */
function FullPageLoads() {
  const { key } = useLocation();
  const first = useRef(key);
  useEffect(() => {
    if (key !== first.current) window.location.reload();
  }, [key]);
  return null;
}

/**
 * Once the user has logged out, the page's first-paint hint shows a visitor's links again; a guarded
 * page's content goes (the page loads again: its shell shows the sign-in screen).
 */
function SignedOutHint() {
  const { user, loading } = useSession();
  useEffect(() => {
    if (user || loading) return;
    if (document.getElementById('root')?.hasAttribute(GUARDED_CONTENT)) window.location.reload();
    else document.documentElement.setAttribute('data-session', 'none');
  }, [user, loading]);
  return null;
}

/** Replaces the avatar button (src/app/islands/account.ts) with the signed-in user's menu, open. */
export function openAccountMenu(slot: HTMLElement, config: PublicConfig): void {
  createRoot(slot).render(
    <StrictMode>
      <PublicConfigContext.Provider value={config}>
        <BrowserRouter>
          <FullPageLoads />
          <SignedOutHint />
          <OptionalPart>
            <UserMenu defaultOpen />
          </OptionalPart>
        </BrowserRouter>
      </PublicConfigContext.Provider>
    </StrictMode>,
  );
}
