import { useEffect, useRef, type FocusEvent } from 'react';
import { focusedElement } from '../lib/announcement';
import type { WidgetState } from '../lib/widget-state';

/**
 * Keyboard focus across the widget's states: the focused control disappears when the state changes
 * (ENGAGE becomes END and back), so the focus goes to the control that replaced it, unless the
 * visitor has moved on elsewhere. The chat focuses its own box when it opens, and closing it hands
 * focus back to "Type instead". Escape abandons CONNECTING..., wherever the focus is (a click does
 * not focus buttons everywhere).
 */
export function useWidgetFocus(status: WidgetState['status'], cancel: () => void) {
  const root = useRef<HTMLElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const typeInstead = useRef<HTMLButtonElement>(null);
  const focusInside = useRef(false);
  const previous = useRef(status);

  useEffect(() => {
    const from = previous.current;
    previous.current = status;
    if (!focusInside.current || status === 'chat') return;
    const active = focusedElement(root.current);
    const lost = active === null || active === document.body || !active.isConnected;
    if (!lost && !root.current?.contains(active)) return;
    const target = from === 'chat' ? typeInstead.current : primary.current;
    if (target && active !== target) target.focus();
  }, [status]);

  useEffect(() => {
    if (status !== 'connecting') return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      event.preventDefault();
      cancel();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [status, cancel]);

  const regionProps = {
    ref: root,
    onFocus: () => (focusInside.current = true),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      const next = event.relatedTarget;
      if (next instanceof Node && !root.current?.contains(next)) focusInside.current = false;
    },
  };
  /** Whether the press that loaded the view came with the focus (the keyboard): it follows on. */
  const setFocusInside = (inside: boolean) => {
    focusInside.current = inside;
  };
  return { regionProps, primary, typeInstead, setFocusInside };
}
