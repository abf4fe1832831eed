import { paths } from '@/config/paths';
import { avatarClass, initialOf } from '@/features/auth/avatar';
import type { PublicConfig } from '@/lib/public-config-source';
import { isAdminUser, isOperatorUser, readStoredSession, storageKeyFor } from '@/lib/stored-session';

// The account part of a static page's navigation. A visitor's Sign in and Sign up are links: they
// need nothing. A signed-in user's avatar (drawn at the first paint from public/session-hint.js's
// hint) becomes a button here, and the Admin link appears for an admin, by the rules the app uses
// (lib/stored-session.ts); the menu itself (Radix, auth-js) loads when the avatar is pressed.

const loadMenu = () => import('./account-menu');

/**
 * Turns the avatar's first-paint placeholder into the menu's button when the stored session is
 * valid. Returns the button, or null for a visitor.
 */
export function attachAccount(nav: HTMLElement, config: PublicConfig): HTMLButtonElement | null {
  const placeholder = nav.querySelector<HTMLElement>('.session-avatar-hint');
  const stored = readStoredSession(
    window.localStorage,
    storageKeyFor(config.auth.url, location.origin),
    Date.now(),
  );
  if (!placeholder || stored.kind !== 'valid') return null;
  const email = stored.session.user.email ?? '';

  const button = document.createElement('button');
  button.type = 'button';
  button.className = avatarClass;
  button.setAttribute('aria-label', `Account menu for ${email}`);
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  const initial = document.createElement('span');
  initial.setAttribute('aria-hidden', 'true');
  initial.textContent = initialOf(email);
  button.append(initial);
  const slot = document.createElement('span');
  slot.className = 'contents';
  slot.append(button);
  placeholder.replaceWith(slot);

  const preload = () => void loadMenu().catch(() => {});
  button.addEventListener('pointerenter', preload);
  button.addEventListener('focus', preload);
  button.addEventListener('click', () => {
    button.disabled = true; // one menu, however often it is pressed while it loads
    loadMenu()
      .then((m) => m.openAccountMenu(slot, config))
      .catch((error: unknown) => {
        button.disabled = false;
        console.warn('The account menu failed to load:', error);
      });
  });

  // After each KB Import link (the bar's and the phone menu's), with its look, as the app's bar has
  // them: Conversations for an operator or admin, then Admin for an admin.
  const extra = [
    ...(isOperatorUser(stored.session.user) ? [paths.conversations] : []),
    ...(isAdminUser(stored.session.user) ? [paths.admin] : []),
  ];
  for (const kb of nav.querySelectorAll<HTMLAnchorElement>(`a[href="${paths.kbImport.path}"]`)) {
    let anchor = kb;
    for (const target of extra) {
      const link = kb.cloneNode() as HTMLAnchorElement;
      link.href = target.path;
      link.textContent = target.label;
      anchor.after(link);
      anchor = link;
    }
  }
  return button;
}
