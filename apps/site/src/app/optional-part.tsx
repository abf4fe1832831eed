import { Component, Suspense, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * Renders a lazily loaded, non-essential part of the shell (toasts, the account menu): nothing while
 * it loads, and nothing if its chunk fails to load, instead of taking the whole page down.
 */
export class OptionalPart extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.warn('An optional part of the page failed to load:', error);
  }

  override render() {
    if (this.state.failed) return null;
    return <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
