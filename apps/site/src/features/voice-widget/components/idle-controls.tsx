import type { Ref } from 'react';
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

/** ENGAGE and "Type instead"; while connecting, a disabled CONNECTING... and Cancel. */
export function IdleControls(props: IdleControlsProps) {
  const { connecting, voice, chat, chatOffered, primaryRef, typeInsteadRef } = props;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {(voice || connecting) && (
        <button
          ref={primaryRef}
          type="button"
          onClick={connecting ? undefined : props.onEngage}
          // aria-disabled rather than disabled: the button keeps keyboard focus while connecting.
          aria-disabled={connecting}
          className={`rounded-full px-6 py-3 text-base font-bold tracking-widest shadow-xl ${focusRing} ${
            connecting
              ? 'cursor-wait bg-slate-300 text-slate-700'
              : 'bg-white text-slate-950 hover:bg-sky-100 active:bg-sky-200'
          }`}
        >
          {connecting ? (
            'CONNECTING...'
          ) : (
            <>
              {/* An SVG, not the 🎤 emoji: without an emoji font that is an empty box. */}
              <MicIcon className="mr-1.5 inline size-5 align-[-0.2em]" /> ENGAGE
            </>
          )}
        </button>
      )}
      {connecting ? (
        <button type="button" onClick={props.onCancel} className={secondaryButton}>
          Cancel
        </button>
      ) : !chat || chatOffered ? null : (
        <button
          ref={voice ? typeInsteadRef : primaryRef}
          type="button"
          onClick={props.onOpenChat}
          className={secondaryButton}
        >
          Type instead
        </button>
      )}
    </div>
  );
}
