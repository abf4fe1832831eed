import { lazy, Suspense, useState, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { avatarClass, initialOf } from '@/features/auth/avatar';
import { useSession } from '@/lib/session';
import { OptionalPart } from './optional-part';

// The menu (Radix DropdownMenu, the password dialog, sonner) loads when the user opens it: a
// signed-in visitor's landing page downloads none of it before the first input.
const loadUserMenu = () => import('@/features/auth/components/user-menu');
const UserMenu = lazy(() => loadUserMenu().then((m) => ({ default: m.UserMenu })));

function AvatarButton({ email, onOpen }: { email: string; onOpen?: () => void }) {
  const preload = () => void loadUserMenu().catch(() => {});
  return (
    <button
      type="button"
      aria-label={`Account menu for ${email}`}
      aria-haspopup="menu"
      aria-expanded={false}
      className={avatarClass}
      onClick={onOpen}
      onPointerEnter={preload}
      onFocus={preload}
    >
      <span aria-hidden="true">{initialOf(email)}</span>
    </button>
  );
}

/** The Admin link, for admins only: the role the server put in app_metadata, not a hard-coded address. */
export function AdminLink({ linkClass }: { linkClass: (state: { isActive: boolean }) => string }) {
  const { isAdmin, prerender } = useSession();
  if (prerender || !isAdmin) return null;
  return (
    <NavLink to={paths.admin.path} className={linkClass}>
      {paths.admin.label}
    </NavLink>
  );
}

/**
 * Conversations, for operators and admins only: visitors' conversations are not for
 * everyone's navigation; the page and the server refuse anyone else all the same.
 */
export function ConversationsLink({ linkClass }: { linkClass: (state: { isActive: boolean }) => string }) {
  const { user, prerender } = useSession();
  const role: unknown = user?.app_metadata?.role;
  if (prerender || (role !== 'operator' && role !== 'admin')) return null;
  return (
    <NavLink to={paths.conversations.path} className={linkClass}>
      {paths.conversations.label}
    </NavLink>
  );
}

type LinkClass = (state: { isActive: boolean }) => string;

/**
 * "Sign in" and "Sign up" for a visitor (the only way in was a protected page). In the
 * prerendered HTML they carry `guard-signed-out`, which styles.css hides when public/session-hint.js
 * found a stored session, so a signed-in user never sees them flash; nothing while a session is decided.
 */
export function VisitorLinks({
  className,
  linkClass,
  signUpClass,
}: {
  className: string;
  linkClass: LinkClass;
  signUpClass: LinkClass;
}) {
  const { user, loading, prerender } = useSession();
  if (!prerender && (user || loading)) return null;
  return (
    <div className={`${prerender ? 'guard-signed-out ' : ''}${className} gap-1`}>
      <NavLink to={paths.signIn.path} className={linkClass}>
        {paths.signIn.label}
      </NavLink>
      <NavLink to={paths.signUp.path} className={signUpClass}>
        {paths.signUp.label}
      </NavLink>
    </div>
  );
}

/**
 * The account part of the top navigation: the signed-in user's avatar, drawn from the stored session
 * at once (lib/session.tsx), or what a visitor is offered (`children`). In the prerendered HTML the
 * avatar is an empty circle that styles.css fills with the initial public/session-hint.js read, so a
 * signed-in user sees the avatar on the first paint.
 */
export function AccountNav({ children }: { children?: ReactNode }) {
  const { user, prerender } = useSession();
  if (prerender) {
    return (
      <div className="ml-auto flex items-center">
        <span className={`session-avatar-hint ${avatarClass}`} aria-hidden="true" />
        {children}
      </div>
    );
  }
  // Keyed by the user: after a sign-out the next sign-in starts with the menu closed.
  return (
    <div className="ml-auto flex items-center">
      {user ? <AccountMenu key={user.id} email={user.email ?? ''} /> : children}
    </div>
  );
}

/** The avatar, then, once opened (or for a password-reset link's dialog), the loaded menu. */
function AccountMenu({ email }: { email: string }) {
  const { passwordRecovery } = useSession();
  const [opened, setOpened] = useState(false);
  if (!opened && !passwordRecovery) return <AvatarButton email={email} onOpen={() => setOpened(true)} />;
  return (
    <OptionalPart>
      <Suspense fallback={<AvatarButton email={email} />}>
        <UserMenu defaultOpen={opened} />
      </Suspense>
    </OptionalPart>
  );
}
