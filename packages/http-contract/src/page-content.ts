/**
 * GET /api/page-content?path=/ediscovery: a guarded page's content, for a signed-in caller only.
 * A guarded page served as a static page carries no protected content in its HTML (its shell is the
 * same for everybody); the page's script asks for it with the caller's access token and puts it in
 * place of the shell.
 */
import { z } from 'zod';

export { PAGE_CONTENT_PATH } from './page-content-path.js';

export const pageContentQuerySchema = z.object({
  /** The page's route as the address bar has it (any case, optional trailing slash). */
  path: z
    .string()
    .max(200)
    .regex(/^\/[\w\-/]*$/),
});

export const pageContentSchema = z.object({
  /** The page's markup below the navigation, filled with the owner's configuration. */
  html: z.string(),
});
export type PageContent = z.infer<typeof pageContentSchema>;
