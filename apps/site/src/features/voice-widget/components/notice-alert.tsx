import { noticeMessage, offersChat, type Notice } from '../lib/widget-state';
import { CloseIcon } from './icons';
import { focusRing } from './widget-styles';

export interface NoticeAlertProps {
  notice: Notice;
  /** The widget offers the text chat (its mode is not voice only). */
  chat: boolean;
  onOpenChat: () => void;
  onDismiss: () => void;
}

/** What went wrong and how to fix it; no usable microphone offers "Type instead" right there. */
export function NoticeAlert({ notice, chat, onOpenChat, onDismiss }: NoticeAlertProps) {
  return (
    <div
      role="alert"
      className="flex max-w-sm items-start gap-2 rounded-lg border border-red-300/40 bg-slate-950/95 p-3 text-sm text-white shadow-xl"
    >
      <div className="flex flex-1 flex-col items-start gap-2">
        <p>{noticeMessage(notice)}</p>
        {chat && offersChat(notice) && (
          <button
            type="button"
            onClick={onOpenChat}
            className={`rounded-full bg-white px-3 py-1 text-sm font-semibold text-slate-950 hover:bg-sky-100 ${focusRing}`}
          >
            Type instead
          </button>
        )}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss message"
        className={`-m-1 rounded p-1 text-slate-300 hover:text-white ${focusRing}`}
      >
        <CloseIcon className="size-4" />
      </button>
    </div>
  );
}
