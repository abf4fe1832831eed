/** The mount points of a static page's islands (data-island), shared by the pages and src/islands/. */
export const ISLANDS = {
  /** The voice widget (features/landing/components/widget-island.tsx). */
  widget: 'voice-widget',
} as const;
