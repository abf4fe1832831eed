import { defineConfig, type Options } from 'tsup';

// ESM with the Daily adapter and the WebSocket room as lazily loaded chunks, and CommonJS, both
// with declarations. Daily stays an external dependency imported by its bare name; the private
// @engage/vapi-client is bundled in.
const common: Options = {
  entry: {
    index: 'src/index.ts',
    'capture-worklet': 'src/capture-worklet.ts',
    'server-call': 'src/server-call.ts',
    'testing/index': 'src/testing/index.ts',
  },
  // The private client's declarations are inlined (it is not published), so dist/*.d.ts stand
  // alone. tsup's declaration build sets baseUrl, which TypeScript 6 deprecates.
  dts: {
    resolve: [/^@engage\/vapi-client/],
    compilerOptions: {
      ignoreDeprecations: '6.0',
      paths: {
        '@engage/vapi-client': ['../vapi-client/src/index.ts'],
        '@engage/vapi-client/errors': ['../vapi-client/src/errors.ts'],
        '@engage/vapi-client/sleep': ['../vapi-client/src/sleep.ts'],
      },
    },
  },
  treeshake: true,
  target: 'es2022',
  platform: 'browser',
  external: ['@daily-co/daily-js', 'node:events'],
  noExternal: [/^@engage\/vapi-client/],
  esbuildOptions(options) {
    options.conditions = ['source'];
  },
};

export default defineConfig([
  { ...common, format: 'esm', splitting: true, clean: true, outExtension: () => ({ js: '.js' }) },
  {
    ...common,
    format: 'cjs',
    // One file per entry: esbuild's CommonJS output ends with module.exports, which the footer
    // replaces. Dynamic imports become lazy require()s, so Daily still loads on first start().
    splitting: false,
    // esbuild's own tree shaking; tsup's extra Rollup pass would put `exports.x =` lines after
    // the footer.
    treeshake: false,
    outExtension: () => ({ js: '.cjs' }),
    // require('@engage/voice') is the class itself (with .default and .Vapi on it): CommonJS code
    // never needs `.default`, let alone `.default.default`.
    footer: {
      js: "if (typeof module.exports.default === 'function') module.exports = Object.assign(module.exports.default, module.exports);",
    },
  },
]);
