import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches, following changes (a tablet's keyboard plugged in). False where
 * there is no `matchMedia` (the prerender, old test DOMs): say less rather than something untrue.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const matches = () =>
    typeof window !== 'undefined' && typeof window.matchMedia === 'function'
      ? window.matchMedia(query).matches
      : false;
  return useSyncExternalStore(subscribe, matches, () => false);
}

/** A mouse or trackpad that hovers: the device most likely has a keyboard (so Shift+Enter means something). */
export const FINE_POINTER = '(hover: hover) and (pointer: fine)';
