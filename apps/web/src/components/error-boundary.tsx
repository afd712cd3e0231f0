import { AlertTriangle } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ERROR_BOUNDARY_MAX_RETRIES } from '../lib/constants';
import { reportError } from '../lib/error-reporting';
import { SUPPORT_URL } from '../lib/links';
import { Button, buttonClasses } from './ui/button';

export type ErrorLevel = 'component' | 'page' | 'critical';

export interface ErrorCopy {
  title: string;
  description: string;
}

/** Spec §8: the title is chosen by keywords of the message. */
export function describeError(error: Error): ErrorCopy {
  const message = error.message.toLowerCase();
  if (message.includes('network') || message.includes('fetch')) {
    return {
      title: 'Connection Problem',
      description: 'We could not reach the server. Check your connection and try again.',
    };
  }
  if (message.includes('chunk') || message.includes('loading')) {
    return {
      title: 'Loading Error',
      description: 'Part of the application failed to load, often after an update. Reloading usually fixes it.',
    };
  }
  if (message.includes('permission') || message.includes('auth')) {
    return {
      title: 'Access Denied',
      description: 'You do not have permission for this, or your session has expired. Please sign in again.',
    };
  }
  return {
    title: 'Something went wrong',
    description: 'An unexpected error occurred while showing this part of the app.',
  };
}

export interface ErrorBoundaryProps {
  level?: ErrorLevel;
  children: ReactNode;
}

interface State {
  error: Error | null;
  retries: number;
  copied: boolean;
}

/** Catches render errors below it; offers up to three retries, reload, home, copy details and support. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, retries: 0, copied: false };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error, copied: false };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    reportError(error, 'boundary', this.props.level ?? 'page');
    console.error('Error boundary caught', error, info.componentStack);
  }

  private retry = () => {
    this.setState((s) => ({ error: null, retries: s.retries + 1 }));
  };

  private copyDetails = async () => {
    const { error } = this.state;
    if (!error) return;
    const details = [
      `Error: ${error.message}`,
      `Level: ${this.props.level ?? 'page'}`,
      `URL: ${window.location.href}`,
      `Time: ${new Date().toISOString()}`,
      `User agent: ${navigator.userAgent}`,
      error.stack ?? '',
    ].join('\n');
    try {
      await navigator.clipboard.writeText(details);
      this.setState({ copied: true });
    } catch {
      this.setState({ copied: false });
    }
  };

  override render() {
    const { error, retries, copied } = this.state;
    if (!error) return this.props.children;
    const level = this.props.level ?? 'page';
    const { title, description } = describeError(error);
    const retriesLeft = ERROR_BOUNDARY_MAX_RETRIES - retries;
    const wrapper =
      level === 'critical'
        ? 'flex min-h-screen items-center justify-center bg-slate-50 p-6'
        : level === 'page'
          ? 'flex min-h-[60vh] items-center justify-center p-6'
          : 'p-2';

    return (
      <div className={wrapper}>
        <div role="alert" className="w-full max-w-lg rounded-xl border border-red-200 bg-white p-6 shadow-sm">
          <div className="flex items-start gap-3">
            <AlertTriangle className="mt-0.5 h-6 w-6 shrink-0 text-red-600" aria-hidden="true" />
            <div className="min-w-0">
              <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
              <p className="mt-1 text-sm text-slate-600">{description}</p>
              <p className="mt-3 break-words rounded-md bg-slate-50 p-2 font-mono text-xs text-slate-700">
                {error.message}
              </p>
            </div>
          </div>
          <div className="mt-5 flex flex-wrap gap-2">
            {retriesLeft > 0 ? (
              <Button onClick={this.retry}>Try Again ({retriesLeft} left)</Button>
            ) : (
              <p className="self-center text-sm text-slate-500">Maximum retry attempts reached.</p>
            )}
            <Button variant="outline" onClick={() => window.location.reload()}>
              Reload Page
            </Button>
            <a href="/" className={buttonClasses('outline')}>
              Go Home
            </a>
            <Button variant="ghost" onClick={this.copyDetails}>
              {copied ? 'Copied' : 'Copy Error Details'}
            </Button>
          </div>
          <p className="mt-4 text-sm text-slate-500">
            Still stuck?{' '}
            <a href={SUPPORT_URL} target="_blank" rel="noreferrer" className="font-medium text-indigo-600 underline">
              Contact support
            </a>
          </p>
        </div>
      </div>
    );
  }
}
