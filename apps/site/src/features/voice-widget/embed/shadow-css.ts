/**
 * Tailwind's `@property` rules give its variables their starting values (`--tw-border-style: solid`,
 * the empty shadows…), but a browser ignores `@property` inside a shadow root: without them a
 * `border` draws nothing and a `shadow-xl` is invalid. This adds the same starting values as plain
 * declarations in a layer of their own declared first, so every utility still overrides them.
 */
export function withPropertyDefaults(css: string): string {
  const defaults: string[] = [];
  for (const [, name, value] of css.matchAll(/@property\s+(--[\w-]+)\s*\{[^}]*?initial-value:\s*([^;}]+)/g))
    if (name && value) defaults.push(`${name}:${value.trim()}`);
  if (defaults.length === 0) return css;
  return `@layer engage-defaults{*,::before,::after,::backdrop{${defaults.join(';')}}}\n${css}`;
}
