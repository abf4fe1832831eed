// @vitest-environment node
/**
 * The built package, as apps get it: ESM and CommonJS entries built by the real tsup config,
 * imported in plain Node (no `document`, no `window`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { build, type Options } from 'tsup';
import { beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config.js';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'dist');

/** Runs a snippet in a plain Node process (no Vitest, no DOM, no source condition) from the package. */
function node(args: string[], code: string): string {
  return execFileSync(process.execPath, [...args, '-e', code], { cwd: root, encoding: 'utf8' }).trim();
}

beforeAll(async () => {
  // The JavaScript of `npm run build` (declarations are left as they are; old chunks removed).
  for (const dir of [outDir, path.join(outDir, 'testing')]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) if (/\.c?js$/.test(file)) rmSync(path.join(dir, file));
  }
  for (const options of config as Options[]) {
    await build({
      ...options,
      entry: {
        index: path.join(root, 'src/index.ts'),
        'testing/index': path.join(root, 'src/testing/index.ts'),
      },
      outDir,
      tsconfig: path.join(root, 'tsconfig.json'),
      clean: false,
      dts: false,
      silent: true,
      config: false,
    });
  }
}, 120_000);

describe('the built package in plain Node', () => {
  it('ESM: `import Vapi from "@engage/voice"` has no side effects and constructs without document', () => {
    const out = node(
      ['--input-type=module'],
      `import Vapi, { Vapi as Named } from '@engage/voice';
       const before = Object.keys(globalThis).sort().join();
       const vapi = new Vapi('pk_test');
       console.log(JSON.stringify({
         same: Vapi === Named,
         document: typeof document,
         muted: vapi.isMuted(),
         player: vapi.getAudioPlayer(),
         globals: before === Object.keys(globalThis).sort().join(),
       }));`,
    );
    expect(JSON.parse(out)).toEqual({
      same: true,
      document: 'undefined',
      muted: false,
      player: null,
      globals: true,
    });
  });

  it('baseline: @vapi-ai/web imported the same way is "not a constructor" (defect 8)', () => {
    const out = node(
      ['--input-type=module'],
      `import Vapi from '@vapi-ai/web';
       try { new Vapi('pk_test'); console.log('constructed'); } catch (e) { console.log(e.message); }`,
    );
    expect(out).toBe('Vapi is not a constructor');
  });

  it('CommonJS: require("@engage/voice") is the class itself, with .default and .Vapi on it', () => {
    const out = node(
      [],
      `const Vapi = require('@engage/voice');
       const vapi = new Vapi('pk_test');
       console.log(JSON.stringify({
         type: typeof Vapi,
         default: Vapi.default === Vapi,
         named: Vapi.Vapi === Vapi,
         instance: vapi instanceof Vapi,
         resolved: require.resolve('@engage/voice').endsWith('dist/index.cjs'),
       }));`,
    );
    expect(JSON.parse(out)).toEqual({
      type: 'function',
      default: true,
      named: true,
      instance: true,
      resolved: true,
    });
  });

  it('the testing entry loads in Node from both formats', () => {
    const out = node(
      [],
      `const t = require('@engage/voice/testing');
       const call = new t.FakeDaily().createCallObject({});
       console.log(typeof t.FakeDaily, typeof call.join);`,
    );
    expect(out).toBe('function function');
  });

  it('keeps Daily out of the main bundle: only the lazily loaded Daily chunk imports it, by its bare name', () => {
    const files = readdirSync(outDir).filter((f) => f.endsWith('.js'));
    const importers = files.filter((f) =>
      readFileSync(path.join(outDir, f), 'utf8').includes('@daily-co/daily-js'),
    );
    expect(importers).toHaveLength(1);
    expect(importers[0]).toMatch(/^daily-/);
    const chunk = readFileSync(path.join(outDir, importers[0]!), 'utf8');
    expect(chunk).toContain("import('@daily-co/daily-js')");
    expect(chunk).not.toContain('createCallObject(e,'); // Daily's own code is not bundled in
    const index = readFileSync(path.join(outDir, 'index.js'), 'utf8');
    expect(index).not.toMatch(/from ['"]@daily-co\/daily-js['"]/);
  });

  it('loads the WebSocket room and the Daily adapter lazily: separate chunks the entry imports only dynamically', () => {
    const read = (file: string) => readFileSync(path.join(outDir, file), 'utf8');
    const relative = (pattern: RegExp, code: string) =>
      [...code.matchAll(pattern)].map((m) => m[1]!).filter((spec) => spec.startsWith('./'));
    // `import … from './x.js'`, `export … from './x.js'` and `import './x.js'`, not `import('./x.js')`.
    const staticImports = (code: string) =>
      relative(/^\s*(?:import|export)\b[^('"]*?['"]([^'"]+)['"]/gm, code).map((s) => s.slice(2));
    const dynamicImports = (code: string) =>
      relative(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, code).map((s) => s.slice(2));
    // Everything a page loads with the entry: the entry and its static imports, transitively.
    const upFront = new Set<string>();
    const visit = (file: string) => {
      if (upFront.has(file)) return;
      upFront.add(file);
      for (const next of staticImports(read(file))) visit(next);
    };
    visit('index.js');
    // Each found by a line of its own source, wherever esbuild put it.
    const holding = (marker: string) =>
      readdirSync(outDir).filter((f) => f.endsWith('.js') && read(f).includes(marker));
    const websocketRoom = holding('This call room is already joined.');
    const dailyAdapter = holding('did not export createCallObject.');
    expect(websocketRoom).toHaveLength(1);
    expect(dailyAdapter).toHaveLength(1);
    expect(websocketRoom[0]).not.toBe(dailyAdapter[0]);
    for (const chunk of [websocketRoom[0]!, dailyAdapter[0]!]) {
      expect([...upFront]).not.toContain(chunk);
      expect(dynamicImports(read('index.js'))).toContain(chunk);
    }
  });

  it('defect 9 of @vapi-ai/web: the SDK without Daily is small, and Daily is not in it', async () => {
    // Official: the generated REST client alone is 133 kB of code, and Daily is bundled statically.
    const result = await esbuild({
      entryPoints: [path.resolve(import.meta.dirname, 'index.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      splitting: true,
      outdir: 'out',
      write: false,
      platform: 'browser',
      external: ['@daily-co/daily-js'],
      conditions: ['source'],
      logLevel: 'silent',
    });
    const entry = result.outputFiles.find((f) => path.basename(f.path) === 'index.js')!;
    expect(entry.text).not.toContain('@daily-co/daily-js');
    expect(gzipSync(entry.contents).length).toBeLessThan(15_000);
  });
});
