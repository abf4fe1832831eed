import { Component, Suspense, type ReactNode } from 'react';

interface LazyPartProps {
  children: ReactNode;
  /** Shown while the part loads, and instead of it when its chunk cannot be fetched. */
  fallback: ReactNode;
}

/**
 * A lazily loaded part of the widget: its fallback while the chunk loads, and the same fallback if
 * the chunk fails (a network blip, a deploy that replaced it), so the call's own controls stay.
 */
export class LazyPart extends Component<LazyPartProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) return this.props.fallback;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
