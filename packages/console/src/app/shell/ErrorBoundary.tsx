import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorFallback } from './ErrorFallback';

interface ErrorBoundaryState {
  error: unknown;
  componentStack: string | undefined;
  hasError: boolean;
}

/** ErrorBoundary catches a render error below it and shows the fallback card until Try Again. */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined, componentStack: undefined, hasError: false };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.setState({ componentStack: info.componentStack ?? undefined });
    console.error('A console page failed to render.', error);
  }

  reset = () => this.setState({ error: undefined, componentStack: undefined, hasError: false });

  override render() {
    if (!this.state.hasError) return this.props.children;
    return <ErrorFallback error={this.state.error} componentStack={this.state.componentStack} onReset={this.reset} />;
  }
}
