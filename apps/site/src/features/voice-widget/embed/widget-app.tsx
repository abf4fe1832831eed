/**
 * The React side of <engage-widget>, loaded on the first click: the view every Engage page shows
 * (../components/engage-widget-view.tsx), rendered into the element's shadow root with its own
 * Tailwind build (widget.css). The voice SDK, the call panel and the chat load from here on demand.
 * @module
 */
import { createRoot } from 'react-dom/client';
import { EngageWidgetView, type EngageWidgetViewProps } from '../components/engage-widget-view';
import { voiceSdkLoader } from '../lib/load-sdk';
import type { MountedWidget, MountOptions } from './element';
import { withPropertyDefaults } from './shadow-css';
import css from './widget.css?inline';

let sheet: CSSStyleSheet | null = null;

export function mountWidget(
  shadow: ShadowRoot,
  initial: EngageWidgetViewProps,
  { captureWorkletUrl, loadSdk = voiceSdkLoader(captureWorkletUrl) }: MountOptions = {},
): MountedWidget {
  const props = { ...initial, loadSdk };
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(withPropertyDefaults(css));
  }
  shadow.adoptedStyleSheets = [sheet];
  const container = document.createElement('div');
  container.className = 'engage-root';
  shadow.append(container);
  const root = createRoot(container);
  root.render(<EngageWidgetView {...props} />);
  return {
    // A later attribute change keeps the call: the same view, new props (the first press is done).
    update: (next) => root.render(<EngageWidgetView {...next} loadSdk={loadSdk} start={props.start} />),
    unmount: () => {
      root.unmount();
      container.remove();
    },
  };
}
