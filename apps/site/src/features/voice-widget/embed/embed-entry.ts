/**
 * /embed.js: defines <engage-widget> on any site. Engage's origin is the script's own (where the site
 * loaded it from); the React view and everything after it load from there on the first click.
 * @module
 */
import { defineEngageWidget, type WidgetApp } from './element';

/** The React view's file, content-hashed, and the microphone worklet's (scripts/build-embed.mjs sets both). */
declare const __ENGAGE_EMBED_APP__: string;
declare const __ENGAGE_EMBED_WORKLET__: string;

const script = document.currentScript;
const source = new URL(script instanceof HTMLScriptElement && script.src ? script.src : window.location.href);

defineEngageWidget({
  origin: source.origin,
  // An absolute URL on Engage's origin, whatever page runs this.
  loadApp: () => import(/* @vite-ignore */ new URL(__ENGAGE_EMBED_APP__, source).href) as Promise<WidgetApp>,
  captureWorkletUrl: new URL(__ENGAGE_EMBED_WORKLET__, source).href,
});
