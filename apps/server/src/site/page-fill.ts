// What the server writes into a built page as it serves it: the owner's configuration at the marks
// the site's build left (apps/site/src/app/entry-server.tsx), and the CSP hashes of the page's own
// inline scripts.
import { createHash } from 'node:crypto';
import type { PublicConfig } from './public-config.js';

/**
 * Marks the site's pages carry where the owner's configuration goes: private-use characters. The
 * domain's is two: letter-spaced by the site they are the landing title's text (filled with the
 * spaced domain), whole they are its accessible name (the domain as written).
 */
const MARK_SITE_TITLE = '\uE001';
const MARK_OWNER_DOMAIN = '\uE000\uE003';
const MARK_OWNER_DOMAIN_SPACED = '\uE000 \uE003';
const MARK_CONFIG = '<!--engage-config-->';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** The personal page's title: the owner's domain letter by letter (as apps/site/src/lib/letter-spacing.ts). */
const spaceOut = (text: string) => [...text.replace(/\s+/g, '')].join(' ');

/**
 * Fills a page with the configuration of this start, so a change of SITE_TITLE or OWNER_DOMAIN needs
 * no rebuild: the title and domain HTML-escaped, and the public configuration as a JSON data block
 * (not a script the CSP would have to allow; `<` escaped so no text can close the element).
 */
export function fillPage(html: string, config: PublicConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html
    .replaceAll(MARK_SITE_TITLE, () => escapeHtml(config.siteTitle))
    .replaceAll(MARK_OWNER_DOMAIN_SPACED, () => escapeHtml(spaceOut(config.ownerDomain)))
    .replaceAll(MARK_OWNER_DOMAIN, () => escapeHtml(config.ownerDomain))
    .replace(MARK_CONFIG, () => `<script type="application/json" id="engage-config">${json}</script>`);
}

/**
 * The CSP sources of a page's inline scripts: every `<script>` without attributes (the build's
 * inlined session hint and loader; the configuration is a JSON data block, which the CSP does not
 * govern), hashed from the built file. Filling the page changes no script: the values land outside
 * them, escaped, so nothing the configuration holds can become an allowed script.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) =>
      `'sha256-${createHash('sha256')
        .update(code ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/** A built page ready to serve: filled once per file version, its inline scripts hashed once. */
export interface PreparedPage {
  html: string;
  scriptHashes: string[];
}

export function preparePage(built: string, config: PublicConfig | undefined): PreparedPage {
  return { html: config ? fillPage(built, config) : built, scriptHashes: inlineScriptHashes(built) };
}
