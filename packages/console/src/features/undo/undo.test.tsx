import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, useNavigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it } from 'vitest';
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
  it('records the page left on each navigation, capped at 10', async () => {
    renderUndo();
    for (let i = 1; i <= 12; i++) await act(() => current().navigate(`/p/${i}`));
    expect(current().undo.entries.map((e) => e.path)).toEqual([
      '/p/2',
      '/p/3',
      '/p/4',
      '/p/5',
      '/p/6',
      '/p/7',
      '/p/8',
      '/p/9',
      '/p/10',
      '/p/11',
    ]);
    expect(current().undo.entries.every((e) => e.action === 'navigate' && e.timestamp > 0)).toBe(true);
  });

  it('undo removes the newest entry and returns to its path without recording the return', async () => {
    const router = renderUndo();
    await act(() => current().navigate('/a'));
    await act(() => current().navigate('/b'));
    expect(screen.getByText('entries:/start,/a')).toBeInTheDocument();
    await act(() => current().undo.undo());
    expect(router.state.location.pathname).toBe('/a');
    expect(screen.getByText('entries:/start')).toBeInTheDocument();
    expect(current().undo.canUndo).toBe(true);
  });

  it('does not navigate when the newest entry is the current page', async () => {
    const router = renderUndo();
    await act(() => current().navigate('/a'));
    act(() => current().undo.record('delete table', '/a'));
    await act(() => current().undo.undo());
    expect(router.state.location.pathname).toBe('/a');
    expect(screen.getByText('entries:/start')).toBeInTheDocument();
  });
});
