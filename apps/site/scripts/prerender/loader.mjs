// The inline loader of a prerendered page: requests the page's script only after the browser reports
// the first contentful paint (then a frame later), at low priority, so the page paints with nothing
// fetched and nothing the paint needs competes with it. Until the script has run, it records what the
// visitor does (src/lib/first-input.ts reads it): whether they pressed anything at all (that starts
// what waits for the first input) and which buttons of the page they clicked, outside the parts
// already alive (`data-live`), to be clicked again once those parts handle them; links navigate by
// themselves. Without the Paint Timing API, or in a tab that never paints (hidden), it loads once the
// document is parsed, or after 3 s.
//
// A page has one script to load ({ entry, preloads }), or two: a static page's islands, and the
// whole app for when the session hint (public/session-hint.js, run just before) says a mail link's
// result or an expired session needs auth-js at once (`data-session="pending"`).

/** @param {{ entry: string, preloads: string[] }} page @param {{ entry: string, preloads: string[] } | null} pending */
export const loader = (page, pending = null) =>
  `(function(a,q){var d=document,w=window,s=w.__engageEarly={input:false,clicks:[],done:false},o={capture:true,passive:true},g=false;` +
  `var m=q&&d.documentElement.getAttribute('data-session')==='pending'?q:a,e=m.entry,p=m.preloads;` +
  `function i(){s.input=true}['pointerdown','touchstart','keydown'].forEach(function(t){w.addEventListener(t,i,o)});` +
  // composedPath: a button in a shadow root (<engage-widget>'s) is the click's target there, not its host.
  `w.addEventListener('click',function(v){var r=d.getElementById('root'),t=v.composedPath?v.composedPath()[0]:v.target,b=!s.done&&t&&t.closest&&t.closest('button'),h=b&&(b.getRootNode().host||b);` +
  `if(b&&r&&r.contains(h)&&!h.closest('[data-live]')&&s.clicks.indexOf(b)<0)s.clicks.push(b)},o);` +
  `function go(){if(g)return;g=true;p.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.fetchPriority='low';l.href=h;d.head.appendChild(l)});` +
  `var t=d.createElement('script');t.type='module';t.crossOrigin='';t.fetchPriority='low';t.src=e;d.head.appendChild(t)}` +
  `function after(){requestAnimationFrame(function(){setTimeout(go,0)})}` +
  `var P=w.PerformanceObserver,y=P&&P.supportedEntryTypes;` +
  `if(y&&y.indexOf('paint')>=0){new P(function(l,b){if(l.getEntriesByName('first-contentful-paint').length){b.disconnect();after()}}).observe({type:'paint',buffered:true});setTimeout(go,3000)}` +
  `else if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',go);else go()})(${JSON.stringify(page)},${JSON.stringify(pending)});`;
