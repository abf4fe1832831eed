// The rules of the stylesheet a prerendered page's own markup uses, to inline in its <style>: the
// whole Tailwind sheet (every rule of the app, ~50 kB) made parsing, style and layout the page's
// longest tasks before the first paint. Beasties (the maintained fork of critters) matches each rule's
// selectors against the page's DOM, keeping pseudo-classes and media queries of rules that match, the
// @layer order, the custom properties and the keyframes those rules use (docs/decisions.md).
//
// What the DOM gains later is styled by the whole sheet, which the inline loader adds after the
// first paint (prerender/loader.mjs). Rules keyed on <html data-session> are always kept: the session
// hint sets the attribute in the browser, before the first paint, and they choose what that paint shows.
import Beasties from 'beasties';

const beasties = new Beasties({
  // Only the <style> we hand it: nothing is read from disk, and its own stylesheet loading is unused.
  reduceInlineStyles: true,
  external: false,
  pruneSource: false,
  keyframes: 'critical',
  allowRules: [/data-session/],
  compress: true,
  logLevel: 'warn',
});

/**
 * @param {string} html a whole page, its markup in place, without a stylesheet
 * @param {string} css the built stylesheet
 * @returns {Promise<string>} the rules of `css` the page uses
 */
export async function criticalCss(html, css) {
  if (!html.includes('</head>')) throw new Error('The page has no </head>.');
  // The markup's own <style>s (the widget's, inside its declarative shadow root) stay as they are in
  // the page: Beasties would prune them against the light DOM. Left out here, they are never touched.
  const page = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
  const out = await beasties.process(page.replace('</head>', () => `<style>${css}</style></head>`));
  const styles = [...out.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)];
  if (styles.length !== 1) throw new Error(`Beasties left ${styles.length} <style> elements, not one.`);
  const used = styles[0][1];
  if (!used.trim()) throw new Error('No rule of the stylesheet matched the page.');
  return used;
}
