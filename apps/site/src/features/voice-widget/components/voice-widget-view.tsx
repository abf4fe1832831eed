import { lazy, useEffect, useRef, useState, type FocusEvent } from 'react';
import { MAX_TYPED_CHARS, useVoiceCall } from '../hooks/use-voice-call';
import { announcement, focusedElement } from '../lib/announcement';
import { loadVoiceSdk } from '../lib/load-sdk';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { isVisibleNotice, noticeMessage, offersChat } from '../lib/widget-state';
import { CloseIcon, MicIcon, MicOffIcon } from './icons';
import { LazyPart } from './lazy-part';
import { VoiceWave } from './voice-wave';

// The parts a visitor needs only once they act: fetched on ENGAGE (the call's captions, transcript
// and text box) or on "Type instead" (the text chat), never with the landing page.
const loadCallPanel = () => import('./call-panel');
const CallPanel = lazy(() => loadCallPanel().then((m) => ({ default: m.CallPanel })));
const ChatPanel = lazy(() => import('../chat/chat-panel').then((m) => ({ default: m.ChatPanel })));

/** What the widget offers: a call and the text chat (the default), or only one of them. */
export type WidgetMode = 'voice+chat' | 'voice' | 'chat';
/** Which bottom corner the widget sits in. */
export type WidgetPosition = 'bottom-left' | 'bottom-right';

export interface VoiceWidgetViewProps {
  /** The provider assistant this page talks to. */
  assistantId: string;
  /** The assistant's name, for the widget's accessible label. */
  assistantName: string;
  /** The provider's public key for this assistant; null: the assistant cannot be reached. */
  publicKey: string | null | undefined;
  /** The provider's API (`…/provider` with the embedded emulator). */
  apiBaseUrl: string;
  /** Loads the SDK; tests pass a fake. */
  loadSdk?: LoadVoiceSdk;
  mode?: WidgetMode;
  position?: WidgetPosition;
  /**
   * The conversation's language (captions, transcript, chat messages and the boxes typed in), for
   * screen readers and spell-checkers; the widget's own texts are English whatever the page's.
   */
  lang?: string;
  /**
   * What the visitor already pressed before this view existed (the <engage-widget> element's idle
   * state, which loads this view on the first click): done once, on mount.
   */
  start?: { action: 'engage' | 'chat'; focus: boolean };
}

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 motion-safe:transition-colors';
const secondaryButton = `rounded-full border border-white/25 bg-slate-950/80 px-4 py-3 text-sm font-semibold text-white shadow-xl backdrop-blur hover:bg-slate-900 ${focusRing}`;

/**
 * The floating voice widget (fixed bottom-left): a microphone and 'ENGAGE' when idle, a disabled
 * 'CONNECTING...' while connecting (Escape or Cancel abandons it), and in a call a five-bar wave,
 * 'Speaking' or 'Listening', a mute toggle and a red 'END', with the call's captions and a box to
 * type a question above them. "Type instead" opens a text chat with the same assistant. Keyboard
 * focus follows the visitor's control across the states.
 */
export function VoiceWidgetView({
  assistantId,
  assistantName,
  publicKey,
  apiBaseUrl,
  loadSdk = loadVoiceSdk,
  mode = 'voice+chat',
  position = 'bottom-left',
  lang,
  start,
}: VoiceWidgetViewProps) {
  const call = useVoiceCall({ assistantId, publicKey, apiBaseUrl, loadSdk });
  const { state, cancel } = call;

  const root = useRef<HTMLElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const typeInstead = useRef<HTMLButtonElement>(null);
  const focusInside = useRef(false);
  const previous = useRef(state.status);

  // The focused control disappears when the state changes (ENGAGE becomes END and back): hand focus
  // to the control that replaced it, unless the visitor has moved on elsewhere. The chat focuses its
  // own box when it opens, and closing it hands focus back to "Type instead".
  useEffect(() => {
    const from = previous.current;
    previous.current = state.status;
    if (!focusInside.current || state.status === 'chat') return;
    const active = focusedElement(root.current);
    const lost = active === null || active === document.body || !active.isConnected;
    if (!lost && !root.current?.contains(active)) return;
    const target = from === 'chat' ? typeInstead.current : primary.current;
    if (target && active !== target) target.focus();
  }, [state.status]);

  // Escape abandons CONNECTING..., wherever the focus is (a click does not focus buttons everywhere).
  useEffect(() => {
    if (state.status !== 'connecting') return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      event.preventDefault();
      cancel();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [state.status, cancel]);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (next instanceof Node && !root.current?.contains(next)) focusInside.current = false;
  };

  const engage = () => {
    void loadCallPanel().catch(() => {});
    call.engage();
  };

  // The press that loaded this view (the element's idle state), once: its button is gone, so the
  // focus moves on to the control that replaced it when the visitor was on the keyboard.
  const started = useRef(false);
  useEffect(() => {
    if (!start || started.current) return;
    started.current = true;
    focusInside.current = start.focus;
    if (start.action === 'engage') engage();
    else call.openChat();
    // Once, on mount: `start` describes the press that created this view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const voice = mode !== 'chat';
  const chat = mode !== 'voice';

  // The last call's conversation stays on screen once it ends (to read, or copy) until the next
  // call, the text chat or its Close. Set while rendering, so the panel is never unmounted between.
  const [kept, setKept] = useState(false);
  const [seen, setSeen] = useState(state.status);
  if (seen !== state.status) {
    setSeen(state.status);
    setKept(state.status === 'idle' && (seen === 'in-call' || kept));
  }
  const inCall = state.status === 'in-call' ? state : null;

  const notice = state.status === 'idle' ? state.notice : null;
  const alert = notice && notice.kind !== 'ended' && isVisibleNotice(notice) ? notice : null;
  const ended = notice?.kind === 'ended' && isVisibleNotice(notice);
  const connecting = state.status === 'connecting';

  return (
    <section
      ref={root}
      lang="en"
      aria-label={`Voice conversation with the ${assistantName}`}
      className={`fixed bottom-4 z-50 flex max-w-[calc(100vw-2rem)] flex-col gap-2 sm:bottom-6 ${
        position === 'bottom-right' ? 'right-4 items-end sm:right-6' : 'left-4 items-start sm:left-6'
      }`}
      onFocus={() => (focusInside.current = true)}
      onBlur={onBlur}
    >
      <p
        role="status"
        className={
          ended
            ? 'rounded-full border border-white/15 bg-slate-950/90 px-4 py-2 text-sm font-medium text-white shadow-xl'
            : 'sr-only'
        }
      >
        {announcement(state)}
      </p>
      {alert && (
        <div
          role="alert"
          className="flex max-w-sm items-start gap-2 rounded-lg border border-red-300/40 bg-slate-950/95 p-3 text-sm text-white shadow-xl"
        >
          <div className="flex flex-1 flex-col items-start gap-2">
            <p>{noticeMessage(alert)}</p>
            {chat && offersChat(alert) && (
              <button
                type="button"
                onClick={call.openChat}
                className={`rounded-full bg-white px-3 py-1 text-sm font-semibold text-slate-950 hover:bg-sky-100 ${focusRing}`}
              >
                Type instead
              </button>
            )}
          </div>
          <button
            type="button"
            onClick={call.dismiss}
            aria-label="Dismiss message"
            className={`-m-1 rounded p-1 text-slate-300 hover:text-white ${focusRing}`}
          >
            <CloseIcon className="size-4" />
          </button>
        </div>
      )}

      {state.status === 'chat' && (
        <LazyPart
          fallback={<p className="rounded-lg bg-slate-950/90 p-3 text-sm text-white">Loading the chat…</p>}
        >
          <ChatPanel
            assistantId={assistantId}
            assistantName={assistantName}
            publicKey={publicKey ?? null}
            apiBaseUrl={apiBaseUrl}
            onClose={call.closeChat}
            initialReason={state.reason}
            lang={lang}
          />
        </LazyPart>
      )}

      {(inCall || kept) && (
        <LazyPart fallback={null}>
          <CallPanel
            messages={call.messages}
            startedAt={inCall?.startedAt ?? 0}
            inputLevel={inCall?.inputLevel ?? 0}
            muted={inCall?.muted ?? false}
            onSend={call.sendText}
            maxLength={MAX_TYPED_CHARS}
            ended={!inCall}
            lang={lang}
            onClose={() => {
              setKept(false);
              primary.current?.focus();
            }}
          />
        </LazyPart>
      )}

      {state.status === 'in-call' && (
        <>
          <div className="flex items-center gap-3 rounded-full border border-white/15 bg-slate-950/90 py-2 pr-2 pl-4 text-white shadow-xl backdrop-blur">
            <VoiceWave volume={state.volume} />
            <span className="min-w-[4.75rem] text-sm font-medium tracking-wide">
              {state.speaking ? 'Speaking' : 'Listening'}
            </span>
            <button
              type="button"
              onClick={call.toggleMute}
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
              onClick={call.hangUp}
              className={`rounded-full bg-red-600 px-5 py-2 text-sm font-bold tracking-widest text-white hover:bg-red-500 ${focusRing}`}
            >
              END
            </button>
          </div>
        </>
      )}

      {(state.status === 'idle' || connecting) && (
        <div className="flex flex-wrap items-center gap-2">
          {(voice || connecting) && (
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
                  {/* An SVG, not the 🎤 emoji: without an emoji font that is an empty box. */}
                  <MicIcon className="mr-1.5 inline size-5 align-[-0.2em]" /> ENGAGE
                </>
              )}
            </button>
          )}
          {connecting ? (
            <button type="button" onClick={cancel} className={secondaryButton}>
              Cancel
            </button>
          ) : !chat || (alert && offersChat(alert)) ? null : (
            // The microphone's alert offers its own "Type instead": one button, not two.
            <button
              ref={voice ? typeInstead : primary}
              type="button"
              onClick={call.openChat}
              className={secondaryButton}
            >
              Type instead
            </button>
          )}
        </div>
      )}
    </section>
  );
}
