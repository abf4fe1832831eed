/** The widget's keyboard focus ring, shared by its controls. */
export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 motion-safe:transition-colors';
export const secondaryButton = `rounded-full border border-white/25 bg-slate-950/80 px-4 py-3 text-sm font-semibold text-white shadow-xl backdrop-blur hover:bg-slate-900 ${focusRing}`;
