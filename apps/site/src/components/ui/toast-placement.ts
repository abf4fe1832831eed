import type { ToasterProps } from 'sonner';

/**
 * Where toasts appear: top right as before, but below the sticky navigation bar (about 3.3 rem tall
 * on every width), so a toast never covers the avatar, its menu or the phone menu's button.
 */
export const toastPlacement = {
  position: 'top-right',
  offset: { top: '4.25rem' },
  mobileOffset: { top: '4rem' },
} as const satisfies Pick<ToasterProps, 'position' | 'offset' | 'mobileOffset'>;
