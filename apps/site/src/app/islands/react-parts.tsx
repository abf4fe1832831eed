import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SiteToaster } from '@/app/site-toaster';

// What a static page's islands add at the first input beside the widget: the toasts, in a root of
// their own at the end of <body> (every toast follows a user action: the account menu's, the widget's).

export function mountToasts(): void {
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(
    <StrictMode>
      <SiteToaster />
    </StrictMode>,
  );
}
