/** GET /api/admin/embed: what an owner needs to put the widget on another site. */
import { z } from 'zod';

/** The build's embed manifest (apps/site/scripts/build-embed.mjs writes dist/embed/manifest.json). */
export const embedScriptSchema = z.object({
  /** Always-current script (cached minutes). */
  script: z.string().regex(/^\/[\w./-]{1,200}$/),
  /** Content-hashed copy (cached for a year), for use with `integrity`. */
  hashedScript: z.string().regex(/^\/[\w./-]{1,200}$/),
  /** Subresource Integrity of the hashed copy. */
  integrity: z.string().regex(/^sha384-[A-Za-z0-9+/=]{64}$/),
  /** Gzip bytes of the script, as loaded before the first click. */
  gzipBytes: z.number().int().nonnegative(),
});
export type EmbedScript = z.infer<typeof embedScriptSchema>;

export const embedSettingsSchema = z.object({
  /** Engage's public origin: the script's and the provider's. */
  origin: z.string(),
  /** EMBED_ORIGINS: the sites allowed to run the widget. */
  origins: z.array(z.string()),
  /** Null when the site was built without the embed (an older build). */
  script: embedScriptSchema.nullable(),
  /** Each configured assistant; `embeddable`: the everyone key may start it (sign-in-only ones may not). */
  assistants: z.array(z.object({ page: z.string(), id: z.string(), embeddable: z.boolean() })),
});
export type EmbedSettings = z.infer<typeof embedSettingsSchema>;
