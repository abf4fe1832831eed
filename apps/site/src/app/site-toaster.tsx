import { lazy, type CSSProperties } from 'react';
import { toastPlacement } from '@/components/ui/toast-placement';
import { OptionalPart } from './optional-part';

// Sonner's toast viewport, loaded when mounted: the app mounts it (app/provider.tsx) at a landing
// page's first input or after the first render elsewhere; a static page's islands at its first input.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

// richColors' own text colours (e.g. success hsl(140 100% 27%) on its pale green) fail WCAG AA
// contrast; these darker ones (Tailwind's -800s) pass on the same backgrounds.
const toastColours = {
  '--success-text': '#166534',
  '--info-text': '#1e40af',
  '--warning-text': '#92400e',
  '--error-text': '#991b1b',
} as CSSProperties;

/** The site's toasts; nothing if their chunk fails to load (every toast follows a user action). */
export function SiteToaster() {
  return (
    <OptionalPart>
      <Toaster richColors closeButton {...toastPlacement} style={toastColours} />
    </OptionalPart>
  );
}
