// The auth modules form a graph without cycles: each endpoint family sits over the shared
// modules, never the other way round. Type-only imports count too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = import.meta.dirname;

/** Relative imports of every non-test module here: file → files it imports. */
function graph(): Map<string, string[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  return new Map(
    files.map((f) => {
      const text = readFileSync(path.join(dir, f), 'utf8');
      const targets = [...text.matchAll(/\bfrom\s+'\.\/([\w.-]+)\.js'/g)].map((m) => `${m[1]}.ts`);
      return [f, targets.filter((t) => files.includes(t))];
    }),
  );
}

/** The first cycle found, as a path of files, or null. */
export function findCycle(edges: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('apps/server/src/auth', () => {
  it('has no import cycle', () => {
    expect(findCycle(graph())).toBeNull();
  });

  it('the check finds a cycle when there is one', () => {
    const edges = new Map([
      ['service.ts', ['mfa.ts']],
      ['mfa.ts', ['users.ts', 'service.ts']],
      ['users.ts', []],
    ]);
    expect(findCycle(edges)).toEqual(['service.ts', 'mfa.ts', 'service.ts']);
  });
});
