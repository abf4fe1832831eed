/**
 * GET /api/admin/embed (admins only): the widget's script tag for each assistant, the allowed
 * origins and the hashed script with its SRI hash, for the dashboard's "Embed" panel.
 * @module
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { embedScriptSchema, type EmbedScript, type EmbedSettings } from '@engage/http-contract';
import { Hono } from 'hono';
import type { Config } from '../platform/config.js';
import { requireAdmin, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';

export interface AdminEmbedDeps {
  config: Config;
  verifyAccessToken: VerifyAccessToken;
  /** Engage's public origin (platform/public-origin.ts). */
  siteOrigin: () => string;
}

/** The build's embed manifest, or null without one (the site built before the embed existed). */
export async function readEmbedManifest(siteDir: string): Promise<EmbedScript | null> {
  let text: string;
  try {
    text = await readFile(path.join(siteDir, 'embed', 'manifest.json'), 'utf8');
  } catch {
    return null;
  }
  const parsed = embedScriptSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

export function adminEmbedRoutes({ config, verifyAccessToken, siteOrigin }: AdminEmbedDeps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('*', requireAdmin(verifyAccessToken, { requireMfa: config.ADMIN_REQUIRE_MFA }));
  app.get('/', async (c) => {
    const settings: EmbedSettings = {
      origin: new URL(siteOrigin()).origin,
      origins: config.EMBED_ORIGINS,
      script: await readEmbedManifest(config.siteDir).catch(() => null),
      // The everyone key starts the public page's assistant only (provider/connection.ts).
      assistants: [
        { page: 'index', id: config.ASSISTANT_ID_INDEX, embeddable: true },
        { page: 'ediscovery', id: config.ASSISTANT_ID_EDISCOVERY, embeddable: false },
        { page: 'onboarding', id: config.ASSISTANT_ID_ONBOARDING, embeddable: false },
      ],
    };
    return c.json(settings);
  });
  return app;
}
