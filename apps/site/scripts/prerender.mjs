// Runs after `vite build` (npm run build): renders the landing pages and the guarded pages' neutral
// shell to static HTML with React's server renderer (src/app/entry-server.tsx, built by Vite in SSR mode
// into dist/.ssr/), into dist/_pages/. The server serves them with the owner's title and domain and
// the public configuration filled in; main.tsx hydrates them.
//
// Nothing delays the first paint but the page itself: the stylesheet is inlined (<style>) and so is
// public/session-hint.js (<script>; inline scripts are allowed by their sha256 hashes, which the
// server computes from the bytes it serves: apps/server/src/routes/static-site.ts). The app's module
// and its preloads are requested by an inline loader after the first paint, at low priority, so they
// do not compete with the page; a click or key press before hydration is recorded and replayed. A guarded page's shell
// paints the page's artwork (inlined as a data: URL) while a stored session is confirmed, so the page
// React renders after it adds no larger paint.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const site = path.resolve(import.meta.dirname, '..');
const dist = path.join(site, 'dist');
const ssr = path.join(dist, '.ssr');
const { render, guardedArt, pageTitle } = await import(pathToFileURL(path.join(ssr, 'entry-server.js')).href);
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const template = readFileSync(path.join(dist, 'index.html'), 'utf8');

const HINT_TAG = '<script src="/session-hint.js"></script>';
// Its leading comment lines are for readers of public/, not bytes every page carries.
const hint = readFileSync(path.join(dist, 'session-hint.js'), 'utf8')
  .replace(/^\/\/.*\n/gm, '')
  .trim();
const cssTag = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/.exec(template);
// index.html's <title> holds the owner's title mark; a prerendered page's names the page before it.
const titleTag = /<title>[^<]*<\/title>/;
if (!template.includes(HINT_TAG) || !cssTag || !titleTag.test(template))
  throw new Error('index.html lost its hint script, stylesheet or <title>.');
const css = readFileSync(path.join(dist, cssTag[1]), 'utf8');
if (css.includes('</style') || hint.includes('</script')) throw new Error('Cannot inline: a closing tag.');
const shade = 'linear-gradient(rgb(2 6 23/.6),rgb(2 6 23/.6))'; // the landing page's overlay
/** An SVG file of dist/ as a data: URL (percent-encoding only what a CSS url("…") needs). */
const svgDataUrl = (src) =>
  `data:image/svg+xml,${readFileSync(path.join(dist, src), 'utf8')
    .replace(/\s+/g, ' ')
    .replace(/"/g, "'")
    .replace(/[%#<>]/g, encodeURIComponent)}`;
/** A guarded page's pending shell: its artwork and overlay, the size of the landing page below the bar. */
const artStyle = (src) =>
  `.guard-pending{min-height:calc(100dvh - 3.5rem);background:${shade},#0f172a url("${svgDataUrl(src)}") center/cover}`;

// The app's entry and its preloads, taken out of the head for the loader below.
const entryTag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/.exec(template);
if (!entryTag) throw new Error('index.html has no module entry.');
const preloadTag = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g;
const basePreloads = [...template.matchAll(preloadTag)].map((m) => m[1]);
/**
 * Requests the app only after the browser reports the first contentful paint (then a frame later),
 * at low priority: the page paints with nothing fetched, and nothing the paint needs competes with
 * the app. Until the app hydrates, it records what the visitor does (src/lib/first-input.ts reads
 * it): whether they pressed anything at all (that starts what waits for the first input) and which
 * buttons of the page they clicked (main.tsx clicks them again once hydrated; links navigate by
 * themselves). Without the Paint Timing API, or in a tab that never paints (hidden), it loads the
 * app once the document is parsed, or after 3 s.
 */
const loader = (modules) =>
  `(function(e,p){var d=document,w=window,s=w.__engageEarly={input:false,clicks:[],done:false},o={capture:true,passive:true},g=false;` +
  `function i(){s.input=true}['pointerdown','touchstart','keydown'].forEach(function(t){w.addEventListener(t,i,o)});` +
  // composedPath: a button in a shadow root (<engage-widget>'s) is the click's target there, not its host.
  `w.addEventListener('click',function(v){var r=d.getElementById('root'),t=v.composedPath?v.composedPath()[0]:v.target,b=!s.done&&t&&t.closest&&t.closest('button');` +
  `if(b&&r&&r.contains(b.getRootNode().host||b)&&s.clicks.indexOf(b)<0)s.clicks.push(b)},o);` +
  `function go(){if(g)return;g=true;p.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.fetchPriority='low';l.href=h;d.head.appendChild(l)});` +
  `var t=d.createElement('script');t.type='module';t.crossOrigin='';t.fetchPriority='low';t.src=e;d.head.appendChild(t)}` +
  `function after(){requestAnimationFrame(function(){setTimeout(go,0)})}` +
  `var P=w.PerformanceObserver,y=P&&P.supportedEntryTypes;` +
  `if(y&&y.indexOf('paint')>=0){new P(function(l,b){if(l.getEntriesByName('first-contentful-paint').length){b.disconnect();after()}}).observe({type:'paint',buffered:true});setTimeout(go,3000)}` +
  `else if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',go);else go()})(${JSON.stringify(entryTag[1])},${JSON.stringify(modules)});`;

/** Text for HTML: the titles are the build's own strings, escaped all the same. */
const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The not-found page, rendered at a mark the server replaces with the path it answers 404 (or 400)
 * for: apps/server/src/routes/static-site.ts reads both from the route manifest written below.
 */
const NOT_FOUND = { page: 'not-found', pathMark: '/\uE002' };
/** The file of a page in dist/_pages/ (without .html). */
const pageName = (route) =>
  route === '/' ? 'index' : route === NOT_FOUND.pathMark ? NOT_FOUND.page : route.slice(1);

/** Page → its route module, whose chunks are preloaded when the first paint shows the page itself. */
const pages = {
  '/': 'src/app/routes/home.tsx',
  '/ediscovery': null, // guarded: the shell needs no page code, and a signed-out visitor never does
  '/onboarding': null,
  '/kb-import': null,
  '/admin': null,
  [NOT_FOUND.pathMark]: 'src/app/routes/not-found.tsx',
};

/** Chunk keys a module statically imports, itself included. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entryChunks = closure(entry);
/** What a page module needs beyond the entry (whose own chunks Vite already preloads). */
const chunksOf = (key) => [...closure(key)].filter((k) => !entryChunks.has(k));

const outDir = path.join(dist, '_pages');
mkdirSync(outDir, { recursive: true });
for (const [route, module] of Object.entries(pages)) {
  const markup = await render(route);
  const preloads = [...basePreloads, ...(module ? chunksOf(module).map((k) => `/${manifest[k].file}`) : [])];
  const art = guardedArt(route);
  const html = template
    .replace('<div id="root"></div>', `<div id="root" data-prerendered>${markup}</div>`)
    .replace(entryTag[0], '')
    .replace(preloadTag, '')
    .replace(HINT_TAG, () => `<script>${hint}</script><script>${loader(preloads)}</script>`)
    .replace(cssTag[0], () => `<style>${css}${art ? artStyle(art) : ''}</style>`)
    // The route's own title (src/app/document-title.ts), as the app sets it; the server fills in the owner's.
    .replace(titleTag, () => `<title>${escapeText(pageTitle(route))}</title>`);
  if (!html.includes('data-prerendered')) throw new Error('index.html has no empty <div id="root">.');
  const name = pageName(route);
  writeFileSync(path.join(outDir, `${name}.html`), html);
  process.stdout.write(
    `prerendered ${route} → dist/_pages/${name}.html (${(html.length / 1024).toFixed(1)} kB)\n`,
  );
}
// The route manifest (apps/server/src/routes/site-routes.ts): the route table's own paths
// (src/app/router.tsx), so the server answers any other path with the not-found page and 404.
const { sitePaths } = await import(pathToFileURL(path.join(ssr, 'entry-server.js')).href);
const routes = sitePaths.map((route) => route.toLowerCase());
const prerendered = Object.keys(pages).filter((route) => route !== NOT_FOUND.pathMark);
const strays = prerendered.filter((route) => !routes.includes(route));
if (strays.length) throw new Error(`Prerendered pages that are not routes of the site: ${strays.join(', ')}`);
const routeManifest = {
  routes,
  pages: Object.fromEntries(prerendered.map((route) => [route, pageName(route)])),
  notFound: NOT_FOUND,
};
writeFileSync(path.join(outDir, 'routes.json'), `${JSON.stringify(routeManifest, null, 2)}\n`);
process.stdout.write(`route manifest → dist/_pages/routes.json (${routes.length} routes)\n`);

// The manifest and the server bundle were only needed here.
rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
rmSync(ssr, { recursive: true, force: true });
