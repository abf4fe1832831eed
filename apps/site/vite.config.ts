import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In `npm run dev` the API, auth, provider and config live on the Engage server behind Vite.
const serverUrl = process.env.ENGAGE_SERVER_URL ?? 'http://127.0.0.1:8787';
const proxied = ['/api', '/auth', '/provider', '/_mail', '/config.json', '/healthz'];
// scripts/build-embed.mjs builds /embed.js with this configuration and its own entries and format.
const embedBuild = process.env.ENGAGE_EMBED_BUILD === '1';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
    conditions: ['source', 'module', 'browser', 'development|production'],
  },
  server: {
    proxy: Object.fromEntries(
      proxied.map((p) => [p, { target: serverUrl, ws: p === '/provider', changeOrigin: false }]),
    ),
  },
  // The manifest tells scripts/prerender.mjs which chunks a prerendered page preloads (it then deletes it).
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    manifest: true,
    rolldownOptions: embedBuild
      ? {}
      : {
          // The app, and the static pages' islands (src/app/islands/main.ts), which prerender.mjs loads on
          // the pages marked `islands` in src/app/site-pages.ts.
          input: {
            index: path.resolve(import.meta.dirname, 'index.html'),
            islands: path.resolve(import.meta.dirname, 'src/app/islands/main.ts'),
          },
          // React, React DOM and react-router in one chunk: with two entries sharing modules the app's
          // start was otherwise split into many small files, each gzipped alone (~5 kB gzip more on a
          // guarded landing page). The islands entry imports none of it before the first input.
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'react',
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                },
              ],
            },
          },
        },
  },
});
