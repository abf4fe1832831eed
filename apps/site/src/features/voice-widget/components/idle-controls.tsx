import type { Ref } from 'react';
import { idleButtons } from '../lib/idle-buttons';
import { MicIcon } from './icons';
import { focusRing, secondaryButton } from './widget-styles';

export interface IdleControlsProps {
  connecting: boolean;
  /** The widget offers calls / the text chat (its mode). */
  voice: boolean;
  chat: boolean;
  /** The notice on screen already offers "Type instead": one button, not two. */
  chatOffered: boolean;
  onEngage: () => void;
  onCancel: () => void;
  onOpenChat: () => void;
  /** The widget's main control (ENGAGE, or "Type instead" in a chat-only widget). */
  primaryRef: Ref<HTMLButtonElement>;
  /** "Type instead" beside ENGAGE, which gets the focus back when the chat closes. */
  typeInsteadRef: Ref<HTMLButtonElement>;
}

const primaryClass = (busy: boolean) =>
  `rounded-full px-6 py-3 text-base font-bold tracking-widest shadow-xl ${focusRing} ${
    busy
      ? 'cursor-wait bg-slate-300 text-slate-700'
      : 'bg-white text-slate-950 hover:bg-sky-100 active:bg-sky-200'
  }`;

/** The idle buttons (../lib/idle-buttons.ts) as the React view draws them, with the focus refs. */
export function IdleControls(props: IdleControlsProps) {
  const { connecting, voice, chat, chatOffered, primaryRef, typeInsteadRef } = props;
  const onPress = { engage: props.onEngage, cancel: props.onCancel, chat: props.onOpenChat };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {idleButtons({ connecting, voice, chat, chatElsewhere: chatOffered }).map((b) => (
        <button
          key={b.action}
          ref={
            b.kind === 'primary'
              ? primaryRef
              : b.action === 'chat'
                ? voice
                  ? typeInsteadRef
                  : primaryRef
                : undefined
          }
          type="button"
          onClick={b.busy ? undefined : onPress[b.action]}
          // aria-disabled rather than disabled: the button keeps keyboard focus while connecting.
          aria-disabled={b.kind === 'primary' ? b.busy : undefined}
          className={b.kind === 'primary' ? primaryClass(b.busy) : secondaryButton}
        >
          {/* An SVG, not the 🎤 emoji: without an emoji font that is an empty box. */}
          {b.label === 'ENGAGE' && <MicIcon className="mr-1.5 inline size-5 align-[-0.2em]" />}
          {b.label === 'ENGAGE' ? ' ENGAGE' : b.label}
        </button>
      ))}
    </div>
  );
}
