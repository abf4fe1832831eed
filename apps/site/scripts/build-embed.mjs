// Builds /embed.js, the script other sites add (docs/embedding.md):
//   1. the React view the element loads on the first click (dist/embed/app-<hash>.js, its chunks),
//      and the microphone's capture worklet as a file (dist/embed/capture-worklet-<hash>.js), since a
//      site's CSP allows no Blob-URL script;
//   2. the element itself, one classic script with no imports (dist/embed.js), which knows the
//      files of step 1 by name; and its content-hashed copy (dist/embed/embed-<hash>.js), served
//      immutable, with its Subresource Integrity hash in dist/embed/manifest.json (admin dashboard).
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const site = path.resolve(import.meta.dirname, '..');
const dist = path.join(site, 'dist');
const outDir = path.join(dist, 'embed');
const configFile = path.join(site, 'vite.config.ts');
const source = (file) => path.join(site, 'src/features/voice-widget/embed', file);
// vite.config.ts then leaves out the site's own entries and chunk groups.
process.env.ENGAGE_EMBED_BUILD = '1';
const hashOf = (bytes, length = 10) => createHash('sha256').update(bytes).digest('hex').slice(0, length);

// 1. The lazily loaded part. A relative base: its chunks and preloads resolve against the module's
// own URL (Engage's origin), never against the page that embeds it.
await build({
  configFile,
  logLevel: 'warn',
  base: './',
  build: {
    outDir,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    rollupOptions: {
      input: { app: source('widget-app.tsx'), 'worklet-source': source('worklet-source.ts') },
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: '[name]-[hash].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: 'chunks/[name]-[hash][extname]',
      },
    },
  },
});
const built = readdirSync(outDir);
const appFile = built.find((f) => /^app-.*\.js$/.test(f));
const workletEntry = built.find((f) => /^worklet-source-.*\.js$/.test(f));
if (!appFile || !workletEntry) throw new Error('The embed build produced no app or worklet entry.');
const { default: workletSource } = await import(pathToFileURL(path.join(outDir, workletEntry)).href);
rmSync(path.join(outDir, workletEntry));
const workletFile = `capture-worklet-${hashOf(workletSource)}.js`;
writeFileSync(path.join(outDir, workletFile), workletSource);

// 2. The element: an IIFE, so `<script src async>` runs it as a classic script on any page.
const elementDir = path.join(dist, '.embed-element');
await build({
  configFile,
  logLevel: 'warn',
  define: {
    __ENGAGE_EMBED_APP__: JSON.stringify(`/embed/${appFile}`),
    __ENGAGE_EMBED_WORKLET__: JSON.stringify(`/embed/${workletFile}`),
  },
  build: {
    outDir: elementDir,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    lib: {
      entry: source('embed-entry.ts'),
      formats: ['iife'],
      name: 'engageEmbed',
      fileName: () => 'embed.js',
    },
  },
});
const element = readFileSync(path.join(elementDir, 'embed.js'));
rmSync(elementDir, { recursive: true });
if (element.includes('engageEmbed')) throw new Error('embed.js must define no global name.');
writeFileSync(path.join(dist, 'embed.js'), element);
const hashed = `embed-${hashOf(element)}.js`;
copyFileSync(path.join(dist, 'embed.js'), path.join(outDir, hashed));
mkdirSync(outDir, { recursive: true });
const manifest = {
  script: '/embed.js',
  hashedScript: `/embed/${hashed}`,
  integrity: `sha384-${createHash('sha384').update(element).digest('base64')}`,
  app: `/embed/${appFile}`,
  gzipBytes: gzipSync(element, { level: 9 }).length,
};
writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.warn(`embed.js: ${element.length} B, ${manifest.gzipBytes} B gzip → /embed/${hashed}`);
