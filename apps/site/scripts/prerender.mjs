// Runs after `vite build` (npm run build): renders the site's pages to static HTML with React's
// server renderer (src/app/entry-server.tsx, built by Vite in SSR mode into dist/.ssr/), into
// dist/_pages/, with the route manifest the server reads. Which pages, and how each loads, comes from
// the site's one page table (src/app/site-pages.ts, planned by src/app/prerender-plan.ts); what was
// written is checked against it, missing and extra pages alike. The server serves the pages with the
// owner's title and domain and the public configuration filled in.
//
// Nothing delays the first paint but the page itself: the rules of the stylesheet the page's markup
// uses are inlined (<style>; the whole sheet comes with the page's script, prerender/critical-css.mjs),
// and so is
// public/session-hint.js (<script>; inline scripts are allowed by their sha256 hashes, which the
// server computes from the bytes it serves: apps/server/src/site/page-fill.ts). The page's
// script is requested by an inline loader after the first paint (prerender/loader.mjs): the app's
// entry (main.tsx hydrates the page), or for a static page its islands (src/app/islands/main.ts); a
// guarded static page's content is written apart (dist/_pages/content/), for the server to send to a
// signed-in caller. A
// guarded page's shell paints the page's artwork (inlined as a data: URL) while a stored session is
// confirmed, so the page React renders after it adds no larger paint.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chunkGraph } from './prerender/chunks.mjs';
import { loader } from './prerender/loader.mjs';
import { readTemplate } from './prerender/template.mjs';

const site = path.resolve(import.meta.dirname, '..');
const dist = path.join(site, 'dist');
const ssr = path.join(dist, '.ssr');
const ISLANDS_ENTRY = 'src/app/islands/main.ts';

const { render, renderContent, guardedArt, pageTitle, prerenderPlan, routeManifest, checkWrittenPages } =
  await import(pathToFileURL(path.join(ssr, 'entry-server.js')).href);
const chunks = chunkGraph(JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')));
const template = readTemplate(dist);

/** The app's entry with what a page's own module needs beyond it. */
const appFor = (module) => ({
  entry: template.app.entry,
  preloads: [...template.app.preloads, ...(module ? chunks.pageFiles(module) : [])],
});

const outDir = path.join(dist, '_pages');
// A fresh directory: a page an older build wrote must not outlive its route.
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
mkdirSync(path.join(outDir, 'content'));
const plan = prerenderPlan();
for (const { route, name, module, islands, content } of plan) {
  const loaderScript = islands
    ? loader(template.stylesheet, chunks.entryFiles(ISLANDS_ENTRY), appFor(module))
    : loader(template.stylesheet, appFor(module));
  const html = await template.page({
    markup: await render(route),
    title: pageTitle(route),
    art: guardedArt(route),
    loaderScript,
  });
  writeFileSync(path.join(outDir, `${name}.html`), html);
  process.stdout.write(
    `prerendered ${route} → dist/_pages/${name}.html (${(html.length / 1024).toFixed(1)} kB)\n`,
  );
  if (content) {
    // The guarded page itself, which the server sends to a signed-in caller only.
    const fragment = await renderContent(route);
    writeFileSync(path.join(outDir, 'content', `${name}.html`), fragment);
    process.stdout.write(
      `  its content → dist/_pages/content/${name}.html (${(fragment.length / 1024).toFixed(1)} kB)\n`,
    );
  }
}
const manifest = routeManifest(plan);
writeFileSync(path.join(outDir, 'routes.json'), `${JSON.stringify(manifest, null, 2)}\n`);
checkWrittenPages(plan, readdirSync(outDir));
process.stdout.write(`route manifest → dist/_pages/routes.json (${manifest.routes.length} routes)\n`);

// The manifest and the server bundle were only needed here.
rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
rmSync(ssr, { recursive: true, force: true });
