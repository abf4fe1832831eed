/** The mount points of a static page's islands (data-island), shared by the pages and src/app/islands/. */
export const ISLANDS = {
  /** The voice widget (app/islands/widget-island.tsx). */
  widget: 'voice-widget',
} as const;
