import type { DetailedHTMLProps, HTMLAttributes } from 'react';

// <engage-widget> in Engage's own JSX (engage-widget.tsx): its attributes as strings.
declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX namespace is how intrinsic elements are declared
  namespace JSX {
    interface IntrinsicElements {
      'engage-widget': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
        assistant: string;
        name?: string;
        mode?: 'voice+chat' | 'voice' | 'chat';
        position?: 'bottom-left' | 'bottom-right';
      };
    }
  }
}
