import { lazy, useEffect, useRef, useState } from 'react';
import type { AnswerByMail } from '../answer-by-mail/answer-request';
import { MAX_TYPED_CHARS } from '../call/call-controller';
import { useCall } from '../call/use-call';
import { useWidgetFocus } from '../hooks/use-widget-focus';
import { announcement } from '../lib/announcement';
import { loadVoiceSdk } from '../lib/load-sdk';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { isVisibleNotice, offersChat, type WidgetState } from '../lib/widget-state';
import { IdleControls } from './idle-controls';
import { InCallBar } from './in-call-bar';
import { LazyPart } from './lazy-part';
import { NoticeAlert } from './notice-alert';

// The parts a visitor needs only once they act: fetched on ENGAGE (the call's captions, transcript
// and text box) or on "Type instead" (the text chat), never with the landing page.
const loadCallPanel = () => import('./call-panel');
const CallPanel = lazy(() => loadCallPanel().then((m) => ({ default: m.CallPanel })));
const ChatPanel = lazy(() => import('../chat/chat-panel').then((m) => ({ default: m.ChatPanel })));

/** What the widget offers: a call and the text chat (the default), or only one of them. */
export type WidgetMode = 'voice+chat' | 'voice' | 'chat';
/** Which bottom corner the widget sits in. */
export type WidgetPosition = 'bottom-left' | 'bottom-right';

export interface EngageWidgetViewProps {
  /** The provider assistant this page talks to. */
  assistantId: string;
  /** The assistant's name, for the widget's accessible label. */
  assistantName: string;
  /** The provider's public key for this assistant; null: the assistant cannot be reached. */
  publicKey: string | null | undefined;
  /** The provider's API (`…/provider` with the embedded emulator). */
  apiBaseUrl: string;
  /** Answers by mail: offered when the assistant could not answer (absent: never offered). */
  answerByMail?: AnswerByMail;
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

/**
 * The floating voice widget (fixed bottom-left): a microphone and 'ENGAGE' when idle, a disabled
 * 'CONNECTING...' while connecting (Escape or Cancel abandons it), and in a call a five-bar wave,
 * 'Speaking' or 'Listening', a mute toggle and a red 'END', with the call's captions and a box to
 * type a question above them. "Type instead" opens a text chat with the same assistant. The call
 * itself is a controller (../call); this view draws its state.
 */
export function EngageWidgetView({
  assistantId,
  assistantName,
  publicKey,
  apiBaseUrl,
  answerByMail,
  loadSdk = loadVoiceSdk,
  mode = 'voice+chat',
  position = 'bottom-left',
  lang,
  start,
}: EngageWidgetViewProps) {
  const { call, state } = useCall({ assistantId, publicKey, apiBaseUrl, loadSdk });
  const focus = useWidgetFocus(state.status, call.cancel);
  const kept = useKeptTranscript(state.status);

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
    focus.setFocusInside(start.focus);
    if (start.action === 'engage') engage();
    else call.openChat();
    // Once, on mount: `start` describes the press that created this view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const voice = mode !== 'chat';
  const chat = mode !== 'voice';

  const inCall = state.status === 'in-call' ? state : null;
  const notice = state.status === 'idle' ? state.notice : null;
  const alert = notice && notice.kind !== 'ended' && isVisibleNotice(notice) ? notice : null;
  const connecting = state.status === 'connecting';

  return (
    <section
      {...focus.regionProps}
      lang="en"
      aria-label={`Voice conversation with the ${assistantName}`}
      className={`fixed bottom-4 z-50 flex max-w-[calc(100vw-2rem)] flex-col gap-2 sm:bottom-6 ${
        position === 'bottom-right' ? 'right-4 items-end sm:right-6' : 'left-4 items-start sm:left-6'
      }`}
    >
      <StatusLine state={state} />
      {alert && (
        <NoticeAlert notice={alert} chat={chat} onOpenChat={call.openChat} onDismiss={call.dismiss} />
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
            {...(answerByMail && { answerByMail })}
          />
        </LazyPart>
      )}

      {(inCall || kept.shown) && (
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
            {...(!inCall &&
              answerByMail &&
              call.lastCallId && { answerByMail: { callId: call.lastCallId, settings: answerByMail } })}
            onClose={() => {
              kept.close();
              focus.primary.current?.focus();
            }}
          />
        </LazyPart>
      )}

      {inCall && (
        <InCallBar
          speaking={inCall.speaking}
          volume={inCall.volume}
          muted={inCall.muted}
          onToggleMute={call.toggleMute}
          onEnd={call.hangUp}
          endRef={focus.primary}
        />
      )}

      {(state.status === 'idle' || connecting) && (
        <IdleControls
          connecting={connecting}
          voice={voice}
          chat={chat}
          chatOffered={alert !== null && offersChat(alert)}
          onEngage={engage}
          onCancel={call.cancel}
          onOpenChat={call.openChat}
          primaryRef={focus.primary}
          typeInsteadRef={focus.typeInstead}
        />
      )}
    </section>
  );
}

/** The state for screen readers; "Call ended" by the assistant or the network is shown as well. */
function StatusLine({ state }: { state: WidgetState }) {
  const notice = state.status === 'idle' ? state.notice : null;
  const ended = notice?.kind === 'ended' && isVisibleNotice(notice);
  return (
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
  );
}

/**
 * The last call's conversation stays on screen once it ends (to read, or copy) until the next
 * call, the text chat or its Close. Decided while rendering, so the panel is never unmounted between.
 */
function useKeptTranscript(status: WidgetState['status']) {
  const [kept, setKept] = useState(false);
  const [seen, setSeen] = useState(status);
  if (seen !== status) {
    setSeen(status);
    setKept(status === 'idle' && (seen === 'in-call' || kept));
  }
  return { shown: kept, close: () => setKept(false) };
}
