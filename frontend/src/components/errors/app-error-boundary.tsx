import { Component, type ReactNode } from 'react';
import { ErrorFallback } from './error-fallback';

export interface AppErrorBoundaryProps {
  readonly children: ReactNode;
  /** A change (the path, after a navigation) clears a caught error, so the next page gets its chance. */
  readonly resetKey?: string;
  /** How Reload reloads; the tests pass a spy, since jsdom cannot reload. */
  readonly onReload?: () => void;
  /** Wraps the fallback, e.g. in a <main> landmark when the boundary sits outside the layout. */
  readonly wrapFallback?: (fallback: ReactNode) => ReactNode;
}

interface State {
  readonly error: unknown;
  readonly failed: boolean;
  readonly resetKey: string | undefined;
}

const reloadPage = (): void => window.location.reload();

/**
 * Catches a render error or a failed lazy chunk below it and shows ErrorFallback instead of unmounting the app
 * into a blank page. React reports the error to the console itself (onCaughtError), so nothing is logged here.
 */
export class AppErrorBoundary extends Component<AppErrorBoundaryProps, State> {
  override state: State = { error: null, failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: AppErrorBoundaryProps, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    return { error: null, failed: false, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const fallback = <ErrorFallback error={this.state.error} onReload={this.props.onReload ?? reloadPage} />;
    return this.props.wrapFallback ? this.props.wrapFallback(fallback) : fallback;
  }
}
