import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deletedFunctions } from '@/features/sql-functions/sql-functions-deleted';
import { json } from '@/test/fake-backend';
import { setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';
import { diffChange } from './change-diff';
import { FUNCTION_HISTORY, gone, serveFunctions, starred } from './function-history.fixtures';
import { summarizeChange } from './history-summary';

// A SQL function's history: /history/-<id> (its entries are kept under the negative of its id), and the SQL
// Functions page's History links and Recently deleted list.

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const [created, changed, goneCreated, goneDeleted] = FUNCTION_HISTORY as [
  (typeof FUNCTION_HISTORY)[number],
  (typeof FUNCTION_HISTORY)[number],
  (typeof FUNCTION_HISTORY)[number],
  (typeof FUNCTION_HISTORY)[number],
];

describe('a SQL function change as a diff', () => {
  it('shows the parts of the definition that changed, before and after', () => {
    expect(diffChange(changed)).toEqual({
      fields: [{ field: 'statement', before: 'SELECT * FROM products', after: starred.body }],
      schema: [],
    });
  });

  it('shows every part a creation set and a deletion removed', () => {
    expect(diffChange(created).fields.map((f) => [f.field, f.after])).toEqual([
      ['name', 'starred'],
      ['parameters', 'min number'],
      ['returns', 'setof products'],
      ['statement', 'SELECT * FROM products'],
      ['call rule', 'public'],
    ]);
    expect(diffChange(goneDeleted).fields.find((f) => f.field === 'parameters')).toEqual({
      field: 'parameters',
      before: '(none)',
    });
  });
});

describe('a SQL function change in one line', () => {
  it('says what it did, as the Table View shows it', () => {
    expect([created, changed, goneDeleted].map(summarizeChange)).toEqual([
      'Defined starred',
      'Changed the statement',
      'Dropped gone',
    ]);
  });
});

describe('deletedFunctions', () => {
  it('lists a function whose latest entry is its deletion, unless it is defined again', () => {
    expect(deletedFunctions(FUNCTION_HISTORY, new Set([9]))).toEqual([{ id: 12, name: 'gone', deletion: goneDeleted }]);
    expect(deletedFunctions(FUNCTION_HISTORY, new Set([9, 12]))).toEqual([]);
    // Brought back by a revert: its newest entry is a creation.
    const back = { ...goneCreated, id: 25, revertOf: 24 };
    expect(deletedFunctions([...FUNCTION_HISTORY, back], new Set([9]))).toEqual([]);
  });
});

describe('/history/-<function id>', () => {
  it('names the SQL function, shows its timeline with diffs and no checkpoints', async () => {
    serveFunctions();
    renderApp('/history/-9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Database History' })).toBeInTheDocument();
    expect(await screen.findByText('starred', { selector: 'header code' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View SQL Functions' })).toHaveAttribute('href', '/sql-functions');
    expect(screen.queryByRole('link', { name: 'View Table Data' })).not.toBeInTheDocument();
    const selector = await screen.findByRole('combobox', { name: 'Table' });
    expect(selector).toHaveValue('-9');
    expect(within(selector).getByRole('option', { name: 'SQL function starred' })).toBeInTheDocument();
    expect(await screen.findByText('2 changes')).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Checkpoints' })).not.toBeInTheDocument();
    const update = await screen.findByRole('listitem', { name: 'Change 22' });
    expect(within(update).getByText('SQL function changed')).toBeInTheDocument();
    expect(within(update).getByText('SELECT * FROM products')).toHaveClass('line-through');
    expect(within(update).getByText(starred.body)).toBeInTheDocument();
  });

  it('reverts a change of the function and refreshes the function list', async () => {
    const backend = serveFunctions({
      'POST /api/history/22/revert': () =>
        json(200, {
          success: true,
          message: 'Reverted',
          revertedChangeId: 22,
          change: { ...changed, id: 26 },
          table: null,
        }),
    });
    const user = userEvent.setup();
    renderApp('/history/-9');
    const functionReads = () => backend.find('GET', '/api/functions/sql').length;
    const button = await screen.findByRole('button', { name: 'Revert change 22' });
    await waitFor(() => expect(functionReads()).toBeGreaterThan(0));
    const before = functionReads();
    await user.click(button);
    expect(await screen.findByText('Change reverted')).toBeInTheDocument();
    expect(backend.find('POST', '/api/history/22/revert')).toHaveLength(1);
    // The definition changed: the function list is read again.
    await waitFor(() => expect(functionReads()).toBeGreaterThan(before));
  });

  it('names a deleted function from its entries', async () => {
    serveFunctions();
    renderApp('/history/-12');
    const selector = await screen.findByRole('combobox', { name: 'Table' });
    await waitFor(() =>
      expect(within(selector).getByRole('option', { name: 'SQL function gone (deleted)' })).toBeInTheDocument(),
    );
    expect(await screen.findByRole('button', { name: 'Revert change 24' })).toBeInTheDocument();
    expect(screen.getByText('gone (deleted)', { selector: 'header code' })).toBeInTheDocument();
  });

  it('opens the timeline when a function is asked for its checkpoints', async () => {
    serveFunctions();
    renderApp('/history/-9?tab=checkpoints');
    expect(await screen.findByRole('listitem', { name: 'Change 22' })).toBeInTheDocument();
  });
});

describe('/sql-functions', () => {
  it('links each function to its history and brings a deleted one back', async () => {
    const backend = serveFunctions({
      'POST /api/history/24/revert': () =>
        json(200, {
          success: true,
          message: 'Reverted',
          revertedChangeId: 24,
          change: { ...goneCreated, id: 25 },
          table: null,
        }),
    });
    const user = userEvent.setup();
    renderApp('/sql-functions');
    expect(await screen.findByRole('link', { name: 'History of starred' })).toHaveAttribute('href', '/history/-9');
    const deleted = await screen.findByRole('listitem', { name: `Deleted ${gone.name}` });
    expect(within(deleted).getByRole('link', { name: 'History of gone' })).toHaveAttribute('href', '/history/-12');
    await user.click(within(deleted).getByRole('button', { name: 'Restore gone' }));
    expect(await screen.findByText('Change reverted')).toBeInTheDocument();
    expect(backend.find('POST', '/api/history/24/revert')).toHaveLength(1);
  });
});
