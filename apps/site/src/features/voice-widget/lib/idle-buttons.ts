/**
 * The idle widget's buttons, decided once: the <engage-widget> element draws them as plain DOM
 * before the first press (../embed/idle.ts) and the React view draws the same ones after a call or a
 * chat (../components/idle-controls.tsx). Pure: which buttons, in which order, with which label.
 * @module
 */

export type IdleAction = 'engage' | 'cancel' | 'chat';

export interface IdleButton {
  action: IdleAction;
  label: 'ENGAGE' | 'CONNECTING...' | 'Cancel' | 'Type instead';
  /** ENGAGE (or CONNECTING...) is the widget's main control; the others are secondary. */
  kind: 'primary' | 'secondary';
  /** Pressing it does nothing for now (aria-disabled, so it keeps the keyboard focus). */
  busy: boolean;
}

export interface IdleButtonsInput {
  connecting: boolean;
  /** The widget offers calls / the text chat (its mode; neither when it is misconfigured). */
  voice: boolean;
  chat: boolean;
  /** "Type instead" is on screen elsewhere already (a notice offers it), or the chat is loading. */
  chatElsewhere: boolean;
}

/** ENGAGE and "Type instead"; while connecting, a busy CONNECTING... and Cancel. */
export function idleButtons({ connecting, voice, chat, chatElsewhere }: IdleButtonsInput): IdleButton[] {
  const buttons: IdleButton[] = [];
  if (connecting) {
    buttons.push({ action: 'engage', label: 'CONNECTING...', kind: 'primary', busy: true });
    buttons.push({ action: 'cancel', label: 'Cancel', kind: 'secondary', busy: false });
    return buttons;
  }
  if (voice) buttons.push({ action: 'engage', label: 'ENGAGE', kind: 'primary', busy: false });
  if (chat && !chatElsewhere)
    buttons.push({ action: 'chat', label: 'Type instead', kind: 'secondary', busy: false });
  return buttons;
}
