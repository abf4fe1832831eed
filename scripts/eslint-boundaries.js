// Module boundaries of docs/architecture.md ("What may import what") as a lint rule.
// Each import is resolved to a zone (package, app, site feature, server domain) and checked
// against the table below; a forbidden edge is reported with the reason.
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

const packageDirs = {
  '@engage/bench-doc': 'packages/bench-doc',
  '@engage/db': 'packages/db',
  '@engage/http-contract': 'packages/http-contract',
  '@engage/jobs': 'packages/jobs',
  '@engage/rate-limit': 'packages/rate-limit',
  '@engage/vapi-contract': 'packages/vapi-contract',
  '@engage/vapi-client': 'packages/vapi-client',
  '@engage/voice': 'packages/voice',
  '@engage/vapi-emulator': 'packages/vapi-emulator',
  '@engage/server': 'apps/server',
  '@engage/site': 'apps/site',
};

/** The zone of a repository-relative path. */
function zoneOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'packages' || parts[0] === 'apps') return `${parts[0]}/${parts[1]}`;
  if (parts[0] === 'e2e') return 'e2e';
  return 'other';
}

/** Resolves a specifier to a repository-relative path, or null for a third-party module. */
function resolveTarget(fromFile, spec) {
  if (spec.startsWith('.')) return path.relative(root, path.resolve(path.dirname(fromFile), spec));
  if (spec.startsWith('@/')) {
    const fromRel = path.relative(root, fromFile);
    const app = fromRel.split('/').slice(0, 2).join('/');
    return `${app}/src/${spec.slice(2)}`;
  }
  for (const [name, dir] of Object.entries(packageDirs)) {
    if (spec === name || spec.startsWith(`${name}/`)) return dir + spec.slice(name.length);
  }
  return null;
}

const allowedInternal = {
  // The one writer of docs/benchmarks.md: benches and scripts only (checked in `check`).
  'packages/bench-doc': [],
  // The server's own HTTP contract (zod schemas): both apps import it, it imports nothing of ours.
  'packages/http-contract': [],
  'packages/vapi-contract': [],
  'packages/vapi-client': ['packages/vapi-contract'],
  // The one limiter and address rule (pure, no dependency): shared by the server and the emulator.
  'packages/rate-limit': [],
  // The one periodic-job helper (no dependency): shared by the server and the emulator.
  'packages/jobs': [],
  // The one database interface (PGlite and PostgreSQL): the server's, and the emulator's test databases.
  'packages/db': [],
  'packages/vapi-emulator': [
    'packages/vapi-contract',
    'packages/rate-limit',
    'packages/jobs',
    'packages/bench-doc',
  ],
  'packages/voice': ['packages/vapi-client', 'packages/bench-doc'],
  'apps/server': [
    'packages/bench-doc',
    'packages/db',
    'packages/http-contract',
    'packages/jobs',
    'packages/rate-limit',
    'packages/vapi-client',
    'packages/vapi-emulator',
    'packages/voice',
  ],
  // The provider's file types and content checks come from the contract itself (shared with the emulator).
  'apps/site': ['packages/http-contract', 'packages/vapi-contract', 'packages/vapi-client', 'packages/voice'],
  e2e: [],
  other: [
    'packages/bench-doc',
    'packages/db',
    'packages/http-contract',
    'packages/jobs',
    'packages/rate-limit',
    'packages/vapi-contract',
    'packages/vapi-client',
    'packages/vapi-emulator',
    'packages/voice',
    'apps/server',
    'apps/site',
  ],
};

// What a package's tests (and their harnesses) may use beyond its own edges: the emulator's suites
// run on both databases and drive it through the SDK the product uses.
const allowedInTests = {
  'packages/vapi-emulator': ['packages/db', 'packages/vapi-client'],
};
const isTestFile = (rel) => /\.test\.tsx?$|-harness\.tsx?$/.test(rel);

function check(fromFile, spec, isTypeOnly) {
  const fromRel = path.relative(root, fromFile);
  const fromZone = zoneOf(fromRel);

  if (spec === '@daily-co/daily-js' || spec.startsWith('@daily-co/daily-js/')) {
    if (!isTypeOnly && fromRel !== 'packages/voice/src/rooms/daily.ts' && !fromRel.includes('/bench/'))
      return 'only packages/voice/src/rooms/daily.ts may import @daily-co/daily-js (type imports excepted)';
  }
  if (spec === 'hono' || spec.startsWith('hono/') || spec.startsWith('@hono/')) {
    if (
      fromRel.startsWith('apps/server/src/auth/') &&
      !/^apps\/server\/src\/auth\/(http|outbox)\//.test(fromRel) &&
      !fromRel.includes('.test.')
    )
      return 'the auth domain (apps/server/src/auth) never imports Hono; auth/http and auth/outbox adapt it';
  }
  const target = resolveTarget(fromFile, spec);
  if (target === null) return null;
  const toZone = zoneOf(target);
  if (
    toZone === 'packages/bench-doc' &&
    fromZone !== toZone &&
    !fromRel.includes('/bench/') &&
    !fromRel.startsWith('scripts/')
  )
    return 'only benches (*/bench/) and scripts/ write docs/benchmarks.md through @engage/bench-doc';
  // The end-to-end specs read the site's content data (the landing roles), never its code.
  const siteData = fromZone === 'e2e' && toZone === 'apps/site' && target.endsWith('.json');
  if (
    toZone !== fromZone &&
    toZone !== 'other' &&
    !siteData &&
    !allowedInternal[fromZone]?.includes(toZone) &&
    !(isTestFile(fromRel) && allowedInTests[fromZone]?.includes(toZone))
  )
    return `${fromZone} may not import ${toZone}`;

  const feature = /^apps\/site\/src\/features\/([^/]+)\//;
  const fromFeature = feature.exec(fromRel)?.[1];
  const toFeature = feature.exec(`${target}/`)?.[1];
  if (fromFeature && toFeature && fromFeature !== toFeature)
    return `site feature "${fromFeature}" may not import feature "${toFeature}": compose them in src/app`;
  if (
    fromRel.startsWith('apps/site/src/') &&
    fromRel !== 'apps/site/src/main.tsx' &&
    !fromRel.startsWith('apps/site/src/app/') &&
    target.startsWith('apps/site/src/app/')
  )
    return 'shared site code and features may not import src/app (app composes features, not the reverse)';
  return null;
}

export default {
  rules: {
    boundaries: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = context.filename;
        const report = (node, spec, typeOnly) => {
          const message = check(file, spec, typeOnly);
          if (message) context.report({ node, message });
        };
        return {
          ImportDeclaration(node) {
            report(node, node.source.value, node.importKind === 'type');
          },
          ExportNamedDeclaration(node) {
            if (node.source) report(node, node.source.value, node.exportKind === 'type');
          },
          ExportAllDeclaration(node) {
            report(node, node.source.value, node.exportKind === 'type');
          },
          ImportExpression(node) {
            if (node.source.type === 'Literal' && typeof node.source.value === 'string')
              report(node, node.source.value, false);
          },
        };
      },
    },
  },
};
