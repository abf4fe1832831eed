// Runs after `vite build` (npm run build): renders the landing pages and the guarded pages' neutral
// shell to static HTML with React's server renderer (src/app/entry-server.tsx, built by Vite in SSR mode
// into dist/.ssr/), into dist/_pages/. The server serves them with the owner's title and domain and
// the public configuration filled in; main.tsx hydrates them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const site = path.resolve(import.meta.dirname, '..');
const dist = path.join(site, 'dist');
const ssr = path.join(dist, '.ssr');
const { render } = await import(pathToFileURL(path.join(ssr, 'entry-server.js')).href);
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const template = readFileSync(path.join(dist, 'index.html'), 'utf8');

/** Page → its route module, whose chunks are preloaded when the first paint shows the page itself. */
const pages = {
  '/': 'src/app/routes/home.tsx',
  '/ediscovery': null, // guarded: the shell needs no page code, and a signed-out visitor never does
  '/onboarding': null,
  '/kb-import': null,
  '/admin': null,
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
  const preloads = module
    ? chunksOf(module).map((k) => `<link rel="modulepreload" crossorigin href="/${manifest[k].file}">`)
    : [];
  const html = template
    .replace('<div id="root"></div>', `<div id="root" data-prerendered>${markup}</div>`)
    .replace('</head>', `${preloads.join('')}</head>`);
  if (!html.includes('data-prerendered')) throw new Error('index.html has no empty <div id="root">.');
  const name = route === '/' ? 'index' : route.slice(1);
  writeFileSync(path.join(outDir, `${name}.html`), html);
  process.stdout.write(
    `prerendered ${route} → dist/_pages/${name}.html (${(html.length / 1024).toFixed(1)} kB)\n`,
  );
}
// The manifest and the server bundle were only needed here.
rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
rmSync(ssr, { recursive: true, force: true });
