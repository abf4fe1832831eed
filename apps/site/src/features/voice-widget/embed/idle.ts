/**
 * The <engage-widget> element's own markup before the first click: ENGAGE and "Type instead" as plain
 * DOM with hand-written styles, so a site pays for no framework until the visitor acts. The same
 * strings build the element's shadow root (element.ts) and the declarative shadow root Engage's
 * prerendered landing pages carry (engage-widget.tsx), so the button shows before any script.
 * The React view (../components/engage-widget-view.tsx) takes over on the first click and looks the
 * same: both draw the buttons ../lib/idle-buttons.ts decides.
 * @module
 */
import type { WidgetMode, WidgetPosition } from '../components/engage-widget-view';
import { idleButtons } from '../lib/idle-buttons';

/** What the idle markup shows. */
export type IdleStatus =
  | 'idle'
  | 'connecting'
  | 'loading-chat'
  | 'refused'
  | 'unreachable'
  /** The element names no assistant, or not an assistant id: nothing to call, so no buttons. */
  | 'misconfigured'
  /** The assistant is not one this site may use (the public key starts only the public page's). */
  | 'not-offered';

export interface IdleOptions {
  /** The assistant's name, for the region's accessible label. */
  name: string;
  mode: WidgetMode;
  position: WidgetPosition;
  status: IdleStatus;
}

/** What the visitor reads when the server refuses this site (403 origin_not_allowed). */
export const NOT_ALLOWED_MESSAGE = 'This site is not allowed to use this assistant.';
const UNREACHABLE_MESSAGE = 'The assistant could not be reached. Please try again.';
/** A site's mistake, said where its author will look: the widget itself. */
export const MISCONFIGURED_MESSAGE =
  'This assistant is not set up: the page must give <engage-widget> an assistant="…" id.';
export const NOT_OFFERED_MESSAGE = 'This assistant is not available on this site.';
const PROBLEMS: Partial<Record<IdleStatus, string>> = {
  refused: NOT_ALLOWED_MESSAGE,
  unreachable: UNREACHABLE_MESSAGE,
  misconfigured: MISCONFIGURED_MESSAGE,
  'not-offered': NOT_OFFERED_MESSAGE,
};

const MIC_ICON =
  '<svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="mic"><path d="M12 19v3"/><path d="M19 10v2a7 7 0 0 1-14 0v-2"/><rect x="9" y="2" width="6" height="13" rx="3"/></svg>';

/**
 * The host is reset (`all: initial !important` wins over a page's `!important` rules for the host
 * itself, since a shadow tree's important declarations come last), so nothing the page sets is
 * inherited; the region then sets every inherited property it relies on.
 */
export const IDLE_CSS = `:host{all:initial!important;display:block!important}
.region{all:initial;position:fixed;bottom:1rem;z-index:2147483000;display:flex;flex-direction:column;gap:.5rem;max-width:calc(100vw - 2rem);font-family:ui-sans-serif,system-ui,sans-serif;font-size:16px;line-height:1.5;color:#fff;-webkit-font-smoothing:antialiased}
.left{left:1rem;align-items:flex-start}.right{right:1rem;align-items:flex-end}
@media (min-width:40rem){.region{bottom:1.5rem}.left{left:1.5rem}.right{right:1.5rem}}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
button{all:initial;box-sizing:border-box;cursor:pointer;border-radius:9999px;font:inherit;font-weight:600;box-shadow:0 20px 25px -5px rgb(0 0 0/.1),0 8px 10px -6px rgb(0 0 0/.1)}
button:focus-visible{outline:2px solid #7dd3fc;outline-offset:2px}
.primary{padding:.75rem 1.5rem;font-size:1rem;font-weight:700;letter-spacing:.1em;background:#fff;color:#020617}
.primary:hover{background:#e0f2fe}.primary[aria-disabled=true]{cursor:wait;background:#cbd5e1;color:#334155}
.secondary{padding:.75rem 1rem;font-size:.875rem;line-height:1.25rem;color:#fff;background:rgb(2 6 23/.8);border:1px solid rgb(255 255 255/.25)}
.secondary:hover{background:#0f172a}
.mic{display:inline;width:1.25rem;height:1.25rem;margin-right:.375rem;vertical-align:-.2em}
.alert{max-width:24rem;border-radius:.5rem;border:1px solid rgb(252 165 165/.4);background:rgb(2 6 23/.95);padding:.75rem;font-size:.875rem;line-height:1.25rem}
.note{border-radius:.5rem;background:rgb(2 6 23/.9);padding:.75rem;font-size:.875rem}
.sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}`;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** The region's inner HTML for a status; `data-action` marks what each button does. */
export function idleMarkup({ name, mode, position, status }: IdleOptions): string {
  const connecting = status === 'connecting';
  const callable = status !== 'misconfigured';
  const live = connecting ? 'Connecting to the assistant…' : '';
  const problem = PROBLEMS[status];
  const buttons = idleButtons({
    connecting,
    voice: mode !== 'chat' && callable,
    chat: mode !== 'voice' && callable,
    chatElsewhere: status === 'loading-chat',
  })
    .map(
      (b) =>
        `<button type="button" class="${b.kind}" data-action="${b.action}"${b.busy ? ' aria-disabled="true"' : ''}>` +
        `${b.label === 'ENGAGE' ? `${MIC_ICON} ` : ''}${b.label}</button>`,
    )
    .join('');
  return (
    `<section lang="en" class="region ${position === 'bottom-right' ? 'right' : 'left'}" aria-label="Voice conversation with the ${escape(name)}">` +
    `<p role="status" class="sr">${live}</p>` +
    (problem ? `<div role="alert" class="alert"><p>${escape(problem)}</p></div>` : '') +
    (status === 'loading-chat' ? '<p class="note">Loading the chat…</p>' : '') +
    `<div class="row">${buttons}</div></section>`
  );
}

/** The declarative shadow root of a prerendered page: the idle markup with its styles. */
export function declarativeShadowRoot(options: Omit<IdleOptions, 'status'>): string {
  return `<template shadowrootmode="open"><style>${IDLE_CSS}</style>${idleMarkup({ ...options, status: 'idle' })}</template>`;
}
