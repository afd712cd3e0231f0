import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drainErrorQueue } from '../lib/error-reporting';
import { describeError, ErrorBoundary } from './error-boundary';

function Thrower({ message }: { message: string }): never {
  throw new Error(message);
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('describeError', () => {
  it('chooses the title by message keywords', () => {
    expect(describeError(new Error('Failed to fetch')).title).toBe('Connection Problem');
    expect(describeError(new Error('Network down')).title).toBe('Connection Problem');
    expect(describeError(new Error('Loading chunk 3 failed')).title).toBe('Loading Error');
    expect(describeError(new Error('Permission denied')).title).toBe('Access Denied');
    expect(describeError(new Error('Authentication failed')).title).toBe('Access Denied');
    expect(describeError(new Error('x is undefined')).title).toBe('Something went wrong');
  });
});

describe('ErrorBoundary', () => {
  it('offers three retries, then no more', async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary level="page">
        <Thrower message="kaboom" />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('kaboom');
    for (const left of [3, 2, 1]) {
      await user.click(screen.getByRole('button', { name: `Try Again (${left} left)` }));
    }
    expect(screen.queryByRole('button', { name: /Try Again/ })).not.toBeInTheDocument();
    expect(screen.getByText('Maximum retry attempts reached.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Copy Error Details' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
  });

  it.each(['component', 'page', 'critical'] as const)(
    'at the %s level shows the error with its actions and queues a report with the level',
    (level) => {
      drainErrorQueue();
      render(
        <ErrorBoundary level={level}>
          <Thrower message={`broke at ${level}`} />
        </ErrorBoundary>,
      );
      expect(screen.getByRole('alert')).toHaveTextContent(`broke at ${level}`);
      expect(screen.getByRole('button', { name: 'Try Again (3 left)' })).toBeInTheDocument();
      const reports = drainErrorQueue().filter((r) => r.message === `broke at ${level}`);
      expect(reports.map((r) => [r.source, r.level])).toContainEqual(['boundary', level]);
    },
  );

  it('renders its children when nothing throws', () => {
    render(
      <ErrorBoundary>
        <p>fine</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeInTheDocument();
  });
});
