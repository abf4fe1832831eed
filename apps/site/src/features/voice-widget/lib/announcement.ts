import { noticeMessage, type WidgetState } from './widget-state';

/** What a screen reader hears when the state changes (errors are announced by their alert). */
export function announcement(state: WidgetState): string {
  switch (state.status) {
    case 'connecting':
      return 'Connecting to the assistant…';
    case 'in-call':
      return state.muted ? 'In a call. Your microphone is muted.' : 'In a call. The assistant can hear you.';
    case 'chat':
      return '';
    case 'idle':
      return state.notice?.kind === 'ended' || state.notice?.kind === 'cancelled'
        ? noticeMessage(state.notice)
        : '';
  }
}

/**
 * The focused element as the widget sees it: inside a shadow root (the <engage-widget> element)
 * `document.activeElement` is the host, so the root's own answer comes first; when the focused
 * button was removed, or the focus is outside the shadow root, the document's.
 */
export function focusedElement(inside: Node | null): Element | null {
  const scope = inside?.getRootNode();
  const own = typeof ShadowRoot !== 'undefined' && scope instanceof ShadowRoot ? scope.activeElement : null;
  return own ?? document.activeElement;
}
