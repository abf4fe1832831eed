import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startServer, type RunningServer } from '../server.js';
import { emulatorKeys } from './emulator-keys.js';
import { starterDocument } from './starter-documents.js';

const quiet = createLogger('silent');
const dirs: string[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string) {
  const config = parseConfig({ PORT: '0', DATA_DIR: dataDir });
  const server = await startServer(config, quiet);
  servers.push(server);
  const key = emulatorKeys(config, server.secrets).privateKey;
  const api = (pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}/provider${pathname}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });
  const ask = async (assistantId: string, input: string) => {
    const res = await api('/chat', { method: 'POST', body: JSON.stringify({ assistantId, input }) });
    const chat = (await res.json()) as { output: { content: string }[] };
    return chat.output.at(-1)?.content ?? '';
  };
  return { config, server, api, ask };
}

describe('the starter documents of the embedded provider', () => {
  it('are written from the site’s configuration: its title, its domain and the page’s roles', () => {
    const text = starterDocument(
      {
        siteTitle: 'Ada’s <Site>',
        ownerDomain: 'ada.example',
        landingRoles: { index: ['inventor', 'strategist'], ediscovery: [], onboarding: [] },
      },
      'index',
    );
    expect(text.split('\n')[0]).toBe('# About Ada’s <Site>');
    expect(text).toContain('the site of ada.example');
    expect(text).toContain('inventor, strategist');
    expect(text).toContain('KB Import page');
  });

  it('give each landing assistant a real first answer, once: an owner’s change is never undone', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'engage-starter-'));
    dirs.push(dataDir);
    const first = await start(dataDir);
    const roles = first.config.landingRoles.ediscovery;
    expect(roles.length).toBeGreaterThan(0);
    // The file is processed in the background: answered from it once it is done.
    await vi.waitFor(
      async () =>
        expect(await first.ask('asst_ediscovery', `Can you help with ${roles[0]}?`)).toMatch(/^From About /),
      { timeout: 15_000, interval: 200 },
    );
    const names = async (server: RunningServer) =>
      (await server.db.query<{ name: string }>('select name from emulator_files order by name')).rows.map(
        (r) => r.name,
      );
    expect(await names(first.server)).toEqual([
      'starter-ediscovery.md',
      'starter-index.md',
      'starter-onboarding.md',
    ]);

    // The owner takes the starter away; the next start leaves it so.
    const res = await first.api('/assistant/asst_ediscovery', {
      method: 'PATCH',
      body: JSON.stringify({ model: { provider: 'openai', model: 'gpt-4o', toolIds: [] } }),
    });
    expect(res.status).toBe(200);
    await first.server.close();
    servers.splice(0);
    const second = await start(dataDir);
    const assistant = (await (await second.api('/assistant/asst_ediscovery')).json()) as {
      model: { toolIds?: string[] };
    };
    expect(assistant.model.toolIds ?? []).toEqual([]);
    expect(await names(second.server)).toHaveLength(3);
  });
});
