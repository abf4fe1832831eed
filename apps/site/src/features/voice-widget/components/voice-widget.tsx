import { useEffect, useRef, type FocusEvent } from 'react';
import { usePublicConfig } from '@/lib/public-config';
import { useVoiceCall } from '../hooks/use-voice-call';
import { loadVoiceSdk } from '../lib/load-sdk';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { noticeMessage, type WidgetState } from '../lib/widget-state';
import { CloseIcon, MicIcon, MicOffIcon } from './icons';
import { VoiceWave } from './voice-wave';

export interface VoiceWidgetProps {
  /** The provider assistant this page talks to. */
  assistantId: string;
  /** The assistant's name, for the widget's accessible label. */
  assistantName: string;
  /** Loads the SDK; tests pass a fake. */
  loadSdk?: LoadVoiceSdk;
}

/** What a screen reader hears when the state changes (errors are announced by their alert). */
function announcement(state: WidgetState): string {
  switch (state.status) {
    case 'connecting':
      return 'Connecting to the assistant…';
    case 'in-call':
      return state.muted ? 'In a call. Your microphone is muted.' : 'In a call. The assistant can hear you.';
    case 'idle':
      return state.notice?.kind === 'ended' ? 'Call ended.' : '';
  }
}

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 motion-safe:transition-colors';

/**
 * The floating voice widget of SPEC §2 (fixed bottom-left): '🎤 ENGAGE' when idle, a disabled
 * 'CONNECTING...' while connecting, and in a call a five-bar wave, 'Speaking' or 'Listening', a mute
 * toggle and a red 'END'. Keyboard focus follows the visitor's control across the states.
 */
export function VoiceWidget({ assistantId, assistantName, loadSdk = loadVoiceSdk }: VoiceWidgetProps) {
  const { provider } = usePublicConfig();
  // Read in the browser only: the page is also prerendered (scripts/prerender.mjs), with no window.
  const apiBaseUrl =
    provider.baseUrl ?? (typeof window === 'undefined' ? '/provider' : `${window.location.origin}/provider`);
  const { state, engage, hangUp, toggleMute, dismiss } = useVoiceCall({
    assistantId,
    publicKey: provider.publicKey,
    apiBaseUrl,
    loadSdk,
  });

  const root = useRef<HTMLElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const focusInside = useRef(false);

  // The focused control disappears when the state changes (ENGAGE becomes END and back): hand focus
  // to the control that replaced it, unless the visitor has moved on elsewhere.
  useEffect(() => {
    const active = document.activeElement;
    const lost = active === null || active === document.body || !active.isConnected;
    if (focusInside.current && (lost || root.current?.contains(active)) && active !== primary.current)
      primary.current?.focus();
  }, [state.status]);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (next instanceof Node && !root.current?.contains(next)) focusInside.current = false;
  };

  const notice = state.status === 'idle' && state.notice?.kind !== 'ended' ? state.notice : null;
  const connecting = state.status === 'connecting';

  return (
    <section
      ref={root}
      aria-label={`Voice conversation with the ${assistantName}`}
      className="fixed bottom-4 left-4 z-50 flex max-w-[calc(100vw-2rem)] flex-col items-start gap-2 sm:bottom-6 sm:left-6"
      onFocus={() => (focusInside.current = true)}
      onBlur={onBlur}
    >
      {notice && (
        <div
          role="alert"
          className="flex max-w-sm items-start gap-2 rounded-lg border border-red-300/40 bg-slate-950/95 p-3 text-sm text-white shadow-xl"
        >
          <p className="flex-1">{noticeMessage(notice)}</p>
          <button
            type="button"
            onClick={dismiss}
            aria-label="Dismiss message"
            className={`-m-1 rounded p-1 text-slate-300 hover:text-white ${focusRing}`}
          >
            <CloseIcon className="size-4" />
          </button>
        </div>
      )}

      {state.status === 'in-call' ? (
        <div className="flex items-center gap-3 rounded-full border border-white/15 bg-slate-950/90 py-2 pr-2 pl-4 text-white shadow-xl backdrop-blur">
          <VoiceWave volume={state.volume} />
          <span className="min-w-[4.75rem] text-sm font-medium tracking-wide">
            {state.speaking ? 'Speaking' : 'Listening'}
          </span>
          <button
            type="button"
            onClick={toggleMute}
            aria-pressed={state.muted}
            aria-label="Mute microphone"
            title={state.muted ? 'Unmute microphone' : 'Mute microphone'}
            className={`rounded-full p-2 ${state.muted ? 'bg-amber-400 text-slate-950 hover:bg-amber-300' : 'bg-white/10 hover:bg-white/20'} ${focusRing}`}
          >
            {state.muted ? <MicOffIcon className="size-5" /> : <MicIcon className="size-5" />}
          </button>
          <button
            ref={primary}
            type="button"
            onClick={hangUp}
            className={`rounded-full bg-red-600 px-5 py-2 text-sm font-bold tracking-widest text-white hover:bg-red-500 ${focusRing}`}
          >
            END
          </button>
        </div>
      ) : (
        <button
          ref={primary}
          type="button"
          onClick={connecting ? undefined : engage}
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
              <span aria-hidden="true">🎤</span> ENGAGE
            </>
          )}
        </button>
      )}

      <p role="status" className="sr-only">
        {announcement(state)}
      </p>
    </section>
  );
}
