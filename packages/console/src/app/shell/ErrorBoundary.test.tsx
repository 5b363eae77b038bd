import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';

let shouldThrow = true;

function Fragile() {
  if (shouldThrow) throw new Error('Table schema is corrupt');
  return <p>Recovered</p>;
}

function Thrower({ value }: { value: unknown }): never {
  const [v] = useState(value);
  throw v;
}

describe('ErrorBoundary', () => {
  it('shows the fallback card, toggles the details and recovers with Try Again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    shouldThrow = true;
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByText('Table schema is corrupt')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Details' }));
    expect(screen.getByText('Error stack')).toBeInTheDocument();
    expect(screen.getByText('Component stack')).toBeInTheDocument();
    expect(screen.getAllByText(/at Fragile/)).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Hide Details' }));
    expect(screen.queryByText('Error stack')).not.toBeInTheDocument();
    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Recovered')).toBeInTheDocument();
  });

  it('falls back to a generic message for errors without one', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Thrower value={{ not: 'an error' }} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('An unexpected error occurred')).toBeInTheDocument();
  });
});
