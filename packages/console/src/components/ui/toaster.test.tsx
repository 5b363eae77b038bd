import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { showToast } from '@/lib/toast';
import { TOAST_DURATION_MS, Toaster } from './toaster';

describe('Toaster', () => {
  it('shows one toast at a time: a new toast replaces the visible one', () => {
    render(<Toaster />);
    act(() => showToast({ title: 'Table created', description: 'Your new table has been created successfully.' }));
    expect(screen.getByText('Table created')).toBeInTheDocument();
    act(() => showToast({ title: 'Failed to delete table', description: 'Not found', variant: 'destructive' }));
    expect(screen.queryByText('Table created')).not.toBeInTheDocument();
    expect(screen.getByText('Failed to delete table')).toBeInTheDocument();
    expect(screen.getByText('Not found')).toBeInTheDocument();
  });

  it('closes after 5 seconds', async () => {
    vi.useFakeTimers();
    try {
      render(<Toaster />);
      act(() => showToast({ title: 'Logged out' }));
      await act(() => vi.advanceTimersByTimeAsync(TOAST_DURATION_MS - 100));
      expect(screen.getByText('Logged out')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(screen.queryByText('Logged out')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes with its Close button', async () => {
    render(<Toaster />);
    act(() => showToast({ title: 'Record deleted' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByText('Record deleted')).not.toBeInTheDocument());
  });
});
