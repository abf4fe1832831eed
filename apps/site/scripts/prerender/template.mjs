// The built index.html, taken apart once: each prerendered page is this template with the page's
// markup, its title, the rules of the stylesheet that markup uses inlined (prerender/critical-css.mjs),
// and an inline loader in place of the module tags (it also brings the whole stylesheet).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { criticalCss } from './critical-css.mjs';

const HINT_TAG = '<script src="/session-hint.js"></script>';
// index.html's <title> holds the owner's title mark; a prerendered page's names the page before it.
const TITLE_TAG = /<title>[^<]*<\/title>/;
const PRELOAD_TAG = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g;
const SHADE = 'linear-gradient(rgb(2 6 23/.6),rgb(2 6 23/.6))'; // the landing page's overlay

/** Text for HTML: the titles are the build's own strings, escaped all the same. */
const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function readTemplate(dist) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  // Its leading comment lines are for readers of public/, not bytes every page carries.
  const hint = readFileSync(path.join(dist, 'session-hint.js'), 'utf8')
    .replace(/^\/\/.*\n/gm, '')
    .trim();
  const cssTag = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/.exec(html);
  const entryTag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/.exec(html);
  if (!html.includes(HINT_TAG) || !cssTag || !TITLE_TAG.test(html) || !entryTag)
    throw new Error('index.html lost its hint script, stylesheet, <title> or module entry.');
  const css = readFileSync(path.join(dist, cssTag[1]), 'utf8');
  if (css.includes('</style') || hint.includes('</script')) throw new Error('Cannot inline: a closing tag.');

  /** An SVG file of dist/ as a data: URL (percent-encoding only what a CSS url("…") needs). */
  const svgDataUrl = (src) =>
    `data:image/svg+xml,${readFileSync(path.join(dist, src), 'utf8')
      .replace(/\s+/g, ' ')
      .replace(/"/g, "'")
      .replace(/[%#<>]/g, encodeURIComponent)}`;
  /** A guarded page's pending shell: its artwork and overlay, the size of the landing page below the bar. */
  const artStyle = (src) =>
    `.guard-pending{min-height:calc(100dvh - 3.5rem);background:${SHADE},#0f172a url("${svgDataUrl(src)}") center/cover}`;

  const stylesheet = `/${cssTag[1]}`;
  return {
    /** The app's entry and the chunks index.html preloads with it. */
    app: { entry: entryTag[1], preloads: [...html.matchAll(PRELOAD_TAG)].map((m) => m[1]) },
    /** The whole stylesheet's URL: the inline loader adds it after the first paint. */
    stylesheet,
    /**
     * A page: its markup in #root (marked data-prerendered), its title, the rules its markup uses (and
     * a guarded page's artwork) inline, the whole stylesheet for a browser without JavaScript (a
     * <noscript> link), the hint and `loaderScript` inline in place of the module tags.
     */
    async page({ markup, title, art, loaderScript }) {
      const withMarkup = html.replace(
        '<div id="root"></div>',
        () => `<div id="root" data-prerendered>${markup}</div>`,
      );
      const used = await criticalCss(withMarkup.replace(cssTag[0], ''), css);
      const out = withMarkup
        .replace(entryTag[0], '')
        .replace(PRELOAD_TAG, '')
        .replace(HINT_TAG, () => `<script>${hint}</script><script>${loaderScript}</script>`)
        .replace(
          cssTag[0],
          () =>
            `<style>${used}${art ? artStyle(art) : ''}</style>` +
            `<noscript><link rel="stylesheet" href="${stylesheet}"></noscript>`,
        )
        .replace(TITLE_TAG, () => `<title>${escapeText(title)}</title>`);
      if (!out.includes('data-prerendered')) throw new Error('index.html has no empty <div id="root">.');
      return out;
    },
  };
}
