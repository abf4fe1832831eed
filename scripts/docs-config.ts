// Writes docs/configuration.md from the server's configuration documentation (config-docs.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configurationMarkdown } from '../apps/server/src/platform/config-docs.js';
import { repoRoot } from '../apps/server/src/platform/config.js';

writeFileSync(path.join(repoRoot, 'docs/configuration.md'), configurationMarkdown());
console.log('wrote docs/configuration.md');
