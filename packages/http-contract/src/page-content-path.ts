/**
 * Where a guarded static page's content is asked for (./page-content.ts). Apart from the schemas: the
 * static pages' script imports the path alone, without zod.
 */
export const PAGE_CONTENT_PATH = '/api/page-content';
