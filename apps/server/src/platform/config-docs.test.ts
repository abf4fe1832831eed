import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOCS, configurationMarkdown } from './config-docs.js';
import { CONFIG_VARIABLES } from './config-schema.js';
import { repoRoot } from './config.js';

describe('docs/configuration.md', () => {
  it('documents every variable the server reads, once, and no other', () => {
    const documented = CONFIG_DOCS.flatMap((d) => d.vars);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('is what `npm run docs:config` writes from the documentation source', () => {
    const written = readFileSync(path.join(repoRoot, 'docs/configuration.md'), 'utf8');
    expect(written, 'docs/configuration.md is stale: run npm run docs:config').toBe(configurationMarkdown());
  });
});
