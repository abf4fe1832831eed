// @vitest-environment node
/**
 * The built package, as apps get it: ESM and CommonJS entries built by the real tsup config,
 * imported in plain Node (no `document`, no `window`).
 */
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build as esbuild } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config.js';

const root = path.resolve(import.meta.dirname, '..');
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'engage-voice-dist-'));
  for (const options of config as Options[]) {
    await build({
      ...options,
      entry: {
        index: path.join(root, 'src/index.ts'),
        'testing/index': path.join(root, 'src/testing/index.ts'),
      },
      outDir,
      clean: false,
      dts: false,
      silent: true,
      config: false,
      tsconfig: path.join(root, 'tsconfig.json'),
    });
  }
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('the built package in Node', () => {
  it('has no browser globals to lean on here', () => {
    expect(typeof document).toBe('undefined');
    expect(typeof window).toBe('undefined');
  });

  it('ESM: importing has no side effects and the default export constructs without document', async () => {
    const mod = (await import(pathToFileURL(path.join(outDir, 'index.js')).href)) as {
      default: new (key: string) => { isMuted(): boolean; getAudioPlayer(): unknown };
      Vapi: unknown;
    };
    expect(mod.default).toBe(mod.Vapi);
    const vapi = new mod.default('pk_test');
    expect(vapi.isMuted()).toBe(false);
    expect(vapi.getAudioPlayer()).toBeNull();
  });

  it('CommonJS: require() gives the class itself, with .default and .Vapi on it', () => {
    const require = createRequire(import.meta.url);
    const Vapi = require(path.join(outDir, 'index.cjs')) as (new (key: string) => object) & {
      default: unknown;
      Vapi: unknown;
    };
    expect(typeof Vapi).toBe('function');
    expect(Vapi.default).toBe(Vapi);
    expect(Vapi.Vapi).toBe(Vapi);
    expect(new Vapi('pk_test')).toBeInstanceOf(Vapi);
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
