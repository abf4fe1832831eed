// Compiles the server to JavaScript: `npm start` and every instance run dist/*.js with plain node.
// Engage's own workspaces (@engage/*) are bundled from their TypeScript sources; every other package
// stays an import, resolved from node_modules at run time as under tsx. Source maps make a stack
// trace name the TypeScript line (node --enable-source-maps).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// `--outdir <dir>`: the server's tests compile their own copy (vitest.global-setup.ts). It must be
// inside the repository, so that the packages left as imports resolve from its node_modules.
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg > 0 ? path.resolve(process.argv[outdirArg + 1] ?? 'dist') : path.join(root, 'dist');
const emulatorKnowledge = path.resolve(root, '../../packages/vapi-emulator/src/knowledge');

/**
 * A module that reads a file next to itself (the server's SQL migrations, its package.json, the
 * provider's OpenAPI document, the repository root) keeps doing so from dist/: its import.meta.url
 * and import.meta.dirname become its source file's. One exception: the document worker starts the
 * thread beside the running code, which in dist/ is the compiled document-thread.js.
 */
const SOURCE_LOCATED = /\.(ts|tsx|mts)$/;
const BUNDLE_LOCATED = new Set([path.join(emulatorKnowledge, 'document-worker.ts')]);

const sourceLocation = {
  name: 'source-location',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: SOURCE_LOCATED }, async ({ path: file }) => {
      const { readFile } = await import('node:fs/promises');
      let contents = await readFile(file, 'utf8');
      if (!BUNDLE_LOCATED.has(file) && contents.includes('import.meta.')) {
        const fromDist = path.relative(outdir, file).split(path.sep).join('/');
        contents = contents
          .replaceAll('import.meta.dirname', `__engageDirname(${JSON.stringify(fromDist)})`)
          .replaceAll('import.meta.url', `__engageUrl(${JSON.stringify(fromDist)})`);
      }
      return { contents, loader: file.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/**
 * Packages that stay imports, resolved from node_modules at run time: those that load files of
 * their own by path (PGlite's WebAssembly and data, pdf.js's worker) or native addons. Everything
 * else, @engage/* from their TypeScript sources, is compiled in: one file to load at start.
 */
const EXTERNAL = ['@electric-sql/pglite', '@node-rs/argon2', 'pg-native', 'unpdf'];

// Defined once per output file: where a source file is, from the output's own location; and
// require() for the CommonJS packages compiled in.
const banner = `import { createRequire as __engageCreateRequire } from 'node:module';
import { fileURLToPath as __engageToPath } from 'node:url';
const require = __engageCreateRequire(import.meta.url);
const __engageUrl = (fromDist) => new URL(fromDist, import.meta.url).href;
const __engageDirname = (fromDist) => __engageToPath(new URL('.', __engageUrl(fromDist)));`;

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    main: path.join(root, 'src/main.ts'),
    'keys-cli': path.join(root, 'src/keys-cli.ts'),
    'backup-cli': path.join(root, 'src/backup-cli.ts'),
    'restore-cli': path.join(root, 'src/restore-cli.ts'),
    'document-thread': path.join(emulatorKnowledge, 'document-thread-main.ts'),
  },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['source'],
  sourcemap: true,
  // The maps name lines, not carry the sources: Node keeps every map it loads in memory.
  sourcesContent: false,
  // Names stay readable in stack traces and profiles.
  minify: false,
  banner: { js: banner },
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  plugins: [sourceLocation],
  logLevel: 'warning',
  metafile: true,
});
if (process.env.ENGAGE_BUILD_META)
  (await import('node:fs')).writeFileSync(process.env.ENGAGE_BUILD_META, JSON.stringify(result.metafile));
const bytes = Object.values(result.metafile.outputs).reduce((sum, out) => sum + out.bytes, 0);
console.log(
  `server: compiled to ${path.relative(process.cwd(), outdir)} (${Math.round(bytes / 1024)} kB with source maps)`,
);
