// The inline loader of a prerendered page: requests the page's script only after the browser reports
// the first contentful paint (then a frame later), at low priority, so the page paints with nothing
// fetched and nothing the paint needs competes with it. Until the script has run, it records what the
// visitor does (src/lib/first-input.ts reads it): whether they pressed anything at all (that starts
// what waits for the first input) and which buttons of the page they clicked, outside the parts
// already alive (`data-live`), to be clicked again once those parts handle them; links navigate by
// themselves. Without the Paint Timing API, or in a tab that never paints (hidden), it loads once the
// document is parsed, or after 3 s.
//
// The page's <style> holds only the rules its prerendered markup uses (prerender/critical-css.mjs): the
// loader adds the whole stylesheet with the script, and runs the script once the sheet has loaded (or
// failed), so nothing the script renders or opens is ever shown unstyled; the script's modules are
// fetched meanwhile. A stylesheet a script inserts does not block rendering.
//
// A page has one script to load ({ entry, preloads }), or two: a static page's islands, and the
// whole app for when the session hint (public/session-hint.js, run just before) says a mail link's
// result or an expired session needs auth-js at once (`data-session="pending"`). The islands may
// bring the app later themselves (a guarded page's sign-in card at the first input): they find it
// on `__engageEarly.app`.
//
// No form of the page submits natively: each is the app's, whose handler runs once it has loaded
// (the press of its button is replayed then). Before, a native submission would put what was typed
// (a password) into a request.

/**
 * @param {string} stylesheet the whole stylesheet's URL
 * @param {{ entry: string, preloads: string[] }} page
 * @param {{ entry: string, preloads: string[] } | null} pending
 */
export const loader = (stylesheet, page, pending = null) =>
  `(function(a,q,k){var d=document,w=window,s=w.__engageEarly={input:false,clicks:[],done:false},o={capture:true,passive:true},g=false;` +
  `var m=q&&d.documentElement.getAttribute('data-session')==='pending'?q:a,e=m.entry,p=m.preloads;s.app=q;` +
  `function i(){s.input=true}['pointerdown','touchstart','keydown'].forEach(function(t){w.addEventListener(t,i,o)});` +
  // composedPath: a button in a shadow root (<engage-widget>'s) is the click's target there, not its host.
  `w.addEventListener('click',function(v){var r=d.getElementById('root'),t=v.composedPath?v.composedPath()[0]:v.target,b=!s.done&&t&&t.closest&&t.closest('button'),h=b&&(b.getRootNode().host||b);` +
  `if(b&&r&&r.contains(h)&&!h.closest('[data-live]')&&s.clicks.indexOf(b)<0)s.clicks.push(b)},o);` +
  `w.addEventListener('submit',function(v){var r=d.getElementById('root');if(r&&r.contains(v.target))v.preventDefault()},true);` +
  `function go(){if(g)return;g=true;p.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.fetchPriority='low';l.href=h;d.head.appendChild(l)});` +
  `var t=d.createElement('script'),c=d.createElement('link'),r=false;t.type='module';t.crossOrigin='';t.fetchPriority='low';t.src=e;` +
  `function run(){if(!r){r=true;d.head.appendChild(t)}}c.rel='stylesheet';c.href=k;c.onload=c.onerror=run;d.head.appendChild(c)}` +
  `function after(){requestAnimationFrame(function(){setTimeout(go,0)})}` +
  `var P=w.PerformanceObserver,y=P&&P.supportedEntryTypes;` +
  `if(y&&y.indexOf('paint')>=0){new P(function(l,b){if(l.getEntriesByName('first-contentful-paint').length){b.disconnect();after()}}).observe({type:'paint',buffered:true});setTimeout(go,3000)}` +
  `else if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',go);else go()})(${JSON.stringify(page)},${JSON.stringify(pending)},${JSON.stringify(stylesheet)});`;
