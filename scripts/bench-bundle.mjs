// npm run bench:bundle — what a visitor of each landing page downloads.
// Builds the site with a manifest into a temporary directory (the served dist/ is left alone), then
// follows the manifest: the entry's static imports plus the landing route's module and its static
// imports are the initial JS and CSS; the voice SDK chunk is what the first ENGAGE click fetches;
// the call-library chunks are what a call start fetches. Sizes are minified bytes and gzip -9.
// `--write` replaces the bundle section of docs/benchmarks.md; `--check` fails above the budget.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const siteRoot = path.join(root, 'apps/site');
const BUDGET_GZIP = 100 * 1024;
// Each landing route with the lazy modules loaded before its content shows: the sign-in pages wait
// for the route guard and the session client it loads (a guard spinner shows meanwhile).
const GUARD = 'src/features/auth/components/route-guard.tsx';
const SESSION_CLIENT = 'src/lib/supabase.ts';
const routes = [
  ['/', ['src/app/routes/home.tsx']],
  ['/ediscovery', ['src/app/routes/ediscovery.tsx', GUARD, SESSION_CLIENT]],
  ['/onboarding', ['src/app/routes/onboarding.tsx', GUARD, SESSION_CLIENT]],
];
const SDK_MODULE = '../../packages/voice/src/index.ts';
const START = '<!-- bench:bundle:start -->';
const END = '<!-- bench:bundle:end -->';

/** Package (or app folder) of a module id, for the breakdown of the initial JS. */
const ownerOf = (id) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (pkg) return pkg[1];
  const rel = path.relative(root, id.replace(/^\0/, '').split('?')[0]);
  const feature = /^apps\/site\/src\/features\/([^/]+)/.exec(rel);
  if (feature) return `site: features/${feature[1]}`;
  if (rel.startsWith('apps/site/')) return 'site: app shell and lib';
  if (rel.startsWith('packages/')) return `@engage/${rel.split('/')[1]}`;
  return 'other';
};
const modulesByFile = new Map();

const outDir = mkdtempSync(path.join(tmpdir(), 'engage-bench-bundle-'));
try {
  await build({
    root: siteRoot,
    configFile: path.join(siteRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
    plugins: [
      {
        name: 'engage-bench-modules',
        generateBundle(_options, bundle) {
          for (const chunk of Object.values(bundle))
            if (chunk.type === 'chunk')
              modulesByFile.set(
                chunk.fileName,
                Object.entries(chunk.modules).map(([id, m]) => ({ id, bytes: m.renderedLength })),
              );
        },
      },
    ],
  });
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
  const size = (file) => {
    const bytes = readFileSync(path.join(outDir, file));
    return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  /** Chunk keys reachable through static imports. */
  const closure = (keys, seen = new Set()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const total = (keys, pick) => {
    const files = new Set();
    for (const key of keys) for (const f of pick(manifest[key])) files.add(f);
    return [...files].reduce(
      (sum, f) => {
        const s = size(f);
        return { min: sum.min + s.min, gzip: sum.gzip + s.gzip, files: sum.files + 1 };
      },
      { min: 0, gzip: 0, files: 0 },
    );
  };
  const js = (chunk) => [chunk.file];
  const css = (chunk) => chunk.css ?? [];
  const breakdown = (keys) => {
    const byOwner = new Map();
    for (const key of keys)
      for (const m of modulesByFile.get(manifest[key].file) ?? [])
        byOwner.set(ownerOf(m.id), (byOwner.get(ownerOf(m.id)) ?? 0) + m.bytes);
    return [...byOwner].filter(([, b]) => b >= 512).sort((a, b) => b[1] - a[1]);
  };

  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const sdkKey = Object.keys(manifest).find((k) => k === SDK_MODULE || manifest[k].src === SDK_MODULE);
  if (!entryKey) throw new Error('The build has no entry chunk.');

  const rows = [];
  let over = false;
  for (const [route, moduleKeys] of routes) {
    if (!manifest[moduleKeys[0]]) throw new Error(`${moduleKeys[0]} is not a chunk of the build.`);
    // The guard and the session client are chunks of their own only when loaded lazily.
    const present = moduleKeys.filter((k) => manifest[k]);
    const initial = closure([entryKey, ...present]);
    const initialJs = total(initial, js);
    const initialCss = total(initial, css);
    const voice = sdkKey ? [...closure([sdkKey])].filter((k) => !initial.has(k)) : [];
    const voiceJs = total(voice, js);
    // Everything a call start may fetch: the SDK's dynamic imports (Daily, the local room), transitively.
    const later = new Set();
    const visit = (key) => {
      for (const next of [...(manifest[key]?.imports ?? []), ...(manifest[key]?.dynamicImports ?? [])]) {
        if (later.has(next) || initial.has(next) || voice.includes(next)) continue;
        later.add(next);
        visit(next);
      }
    };
    voice.forEach(visit);
    const isDaily = (k) => k.includes('@daily-co') || /daily/i.test(manifest[k].file);
    const dailyJs = total([...later].filter(isDaily), js);
    const roomJs = total(
      [...later].filter((k) => !isDaily(k)),
      js,
    );
    if (initialJs.gzip > BUDGET_GZIP) over = true;
    rows.push({ route, initial, initialJs, initialCss, voiceJs, dailyJs, roomJs });
  }

  /** The package or site folder contributing most of a chunk's code. */
  const mainOwner = (key) =>
    key.startsWith('src/') ? manifest[key].name : (breakdown([key])[0]?.[0] ?? manifest[key].name ?? key);
  // Lazy imports the app shell starts on its own (not route modules or what only routes load).
  const afterRender = (manifest[entryKey].dynamicImports ?? [])
    .filter((k) => !k.startsWith('src/app/routes/') && !k.startsWith('src/app/query-provider') && k !== GUARD)
    .map((k) => ({
      name: mainOwner(k),
      ...total(
        [...closure([k])].filter((c) => !closure([entryKey]).has(c)),
        js,
      ),
    }));
  // The account menu's session then loads the session client (supabase-js) on its own.
  if (manifest[SESSION_CLIENT])
    afterRender.push({
      name: 'session client (supabase-js)',
      ...total(
        [...closure([SESSION_CLIENT])].filter((c) => !closure([entryKey]).has(c)),
        js,
      ),
    });
  const kb = (n) => (n / 1024).toFixed(1);
  const cell = (s) => `${kb(s.min)} / ${kb(s.gzip)}`;
  const lines = [
    '## Landing pages: what a visitor downloads (`npm run bench:bundle`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:bundle\` (Vite production build, gzip -9; kB = 1024 bytes).`,
    `Budget: initial JS of a landing route at most ${kb(BUDGET_GZIP)} kB gzip.`,
    '',
    'Columns are min / gzip kB. The voice SDK loads on the first ENGAGE click; Daily (real provider calls)',
    'or the local WebSocket room (the offline emulator) loads when a call starts, whichever the call uses.',
    '',
    '| route | initial JS | initial CSS | voice SDK (first click) | Daily (real call start) | local room (offline call start) |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.route}\` | ${cell(r.initialJs)} (${r.initialJs.files} files)${r.initialJs.gzip > BUDGET_GZIP ? ' **over budget**' : ''} | ${cell(r.initialCss)} | ${cell(r.voiceJs)} | ${cell(r.dailyJs)} | ${cell(r.roomJs)} |`,
    ),
    '',
    `Fetched after the first render, off the critical path (every page): ${
      afterRender.map((c) => `\`${c.name}\` ${kb(c.min)} / ${kb(c.gzip)} kB`).join(', ') || 'nothing'
    }.`,
    '',
    ...[rows[0], rows[1]].flatMap((r) => [
      `Initial JS files of \`${r.route}\`: ${[...r.initial]
        .map((k) => ({
          name: k === entryKey ? 'entry (react-dom, react-router, app shell)' : mainOwner(k),
          ...size(manifest[k].file),
        }))
        .sort((a, b) => b.gzip - a.gzip)
        .map((c) => `\`${c.name}\` ${kb(c.min)} / ${kb(c.gzip)} kB`)
        .join(', ')}.`,
      '',
    ]),
    'Initial JS is what loads before the page shows: the entry chunk, the route module and their static',
    'imports; for the sign-in pages also the route guard and the session client (supabase-js) it waits for.',
    'Deferred from it: the voice SDK and Daily (first click, call start), the toast viewport and the account',
    'menu with the session client (after the first render), the route guard (only with the sign-in pages),',
    'the auth card (only when somebody must sign in), TanStack Query (only with kb import and admin).',
    'react-router runs in its declarative mode, without the data router (no page has loaders, actions or',
    'fetchers). What remains on `/` is React DOM and react-router plus the landing page and the idle widget.',
    'The sign-in pages must know the session before they show, so they wait for the session client',
    '(supabase-js, about 54 kB gzip): that, not the shell, puts them over the budget.',
    '',
    `What the initial JS of \`${rows[0].route}\` is made of (kB of module code before minification, largest first: a guide to what to defer):`,
    '',
    ...breakdown(rows[0].initial).map(([owner, bytes]) => `- ${owner}: ${kb(bytes)} kB`),
  ];
  const section = lines.join('\n');
  console.log(section);

  if (process.argv.includes('--write')) {
    const file = path.join(root, 'docs/benchmarks.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    const block = `${START}\n${section}\n${END}`;
    const next = current.includes(START)
      ? current.replace(new RegExp(`${START}[\\s\\S]*?${END}`), block)
      : `${current.trimEnd()}\n\n${block}\n`;
    writeFileSync(file, next);
    console.log(`\nWrote ${path.relative(root, file)}.`);
  }
  if (process.argv.includes('--check') && over) {
    console.error(`A landing route's initial JS is over ${kb(BUDGET_GZIP)} kB gzip.`);
    process.exitCode = 1;
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
