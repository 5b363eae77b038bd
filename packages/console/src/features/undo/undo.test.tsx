import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, useNavigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it, vi } from 'vitest';
import { UndoProvider } from './UndoProvider';
import { useUndo } from './undo-context';
import { popUndoEntry, pushUndoEntry, UNDO_HISTORY_LIMIT, type UndoEntry } from './undo-history';

const entry = (n: number): UndoEntry => ({ action: 'navigate', path: `/p/${n}`, timestamp: n });

describe('undo history', () => {
  it('keeps only the newest 10 entries', () => {
    let history: UndoEntry[] = [];
    for (let i = 1; i <= 12; i++) history = pushUndoEntry(history, entry(i));
    expect(UNDO_HISTORY_LIMIT).toBe(10);
    expect(history.map((e) => e.timestamp)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('pops the newest entry', () => {
    expect(popUndoEntry([entry(1), entry(2)])).toEqual({ entry: entry(2), rest: [entry(1)] });
    expect(popUndoEntry([])).toEqual({ entry: undefined, rest: [] });
  });
});

let api: { navigate: (to: string) => void; undo: ReturnType<typeof useUndo> } | null = null;

function Probe() {
  const navigate = useNavigate();
  const undo = useUndo();
  api = { navigate, undo };
  return <p>{`entries:${undo.entries.map((e) => e.path).join(',')}`}</p>;
}

function renderUndo() {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <UndoProvider>
            <Probe />
          </UndoProvider>
        ),
      },
    ],
    { initialEntries: ['/start'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

function current() {
  if (!api) throw new Error('Probe not rendered');
  return api;
}

describe('UndoProvider', () => {
  it('records nothing on plain navigation (issue 35: Undo appeared with nothing to undo)', async () => {
    renderUndo();
    for (let i = 1; i <= 3; i++) await act(() => current().navigate(`/p/${i}`));
    expect(current().undo.canUndo).toBe(false);
    expect(screen.getByText('entries:')).toBeInTheDocument();
  });

  it('keeps the newest 10 recorded actions', async () => {
    renderUndo();
    for (let i = 1; i <= 12; i++) act(() => current().undo.record(`revert ${i}`, '/start'));
    expect(current().undo.entries.map((e) => e.action)).toEqual(
      Array.from({ length: 10 }, (_, i) => `revert ${i + 3}`),
    );
  });

  it('undo runs the newest action and returns to the page it was done on', async () => {
    const router = renderUndo();
    const run = vi.fn();
    await act(() => current().navigate('/history'));
    act(() => current().undo.record('revert change', '/history', run));
    await act(() => current().navigate('/elsewhere'));
    expect(current().undo.canUndo).toBe(true);
    await act(() => current().undo.undo());
    expect(run).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/history');
    expect(current().undo.canUndo).toBe(false);
  });

  it('does not navigate when the newest entry is the current page', async () => {
    const router = renderUndo();
    await act(() => current().navigate('/a'));
    act(() => current().undo.record('delete table', '/a'));
    await act(() => current().undo.undo());
    expect(router.state.location.pathname).toBe('/a');
    expect(screen.getByText('entries:')).toBeInTheDocument();
  });
});
