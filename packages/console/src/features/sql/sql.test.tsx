import type { SqlExecutionResult } from '@basalt/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { parseVariables } from './FileRunTab';
import { timeoutError } from './SqlOptionsPanel';
import { SqlResultsPanel } from './SqlResultsPanel';
import { toCsv } from './sql-csv';

const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `n${i + 1}` }));
const result = (dryRun: boolean): SqlExecutionResult => ({
  message: dryRun ? 'Validation only: 1 of 2 statements succeeded; every change was rolled back.' : 'Executed.',
  dryRun,
  summary: { totalStatements: 2, successfulStatements: 1, failedStatements: 1, dryRun },
  results: [
    { statement: 'select * from t', success: true, executionTime: 1.5, rowCount: 25, result: rows, error: null },
    { statement: 'select 1/0', success: false, executionTime: 0.4, rowCount: 0, result: [], error: 'division by zero' },
  ],
});

describe('SqlResultsPanel', () => {
  it('shows the placeholder until a run, then a card per statement with at most 10 rows', async () => {
    const onClear = vi.fn();
    const { rerender } = render(<SqlResultsPanel result={null} onClear={onClear} />);
    expect(screen.getByText('Execute a SQL file to see results')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear Results' })).toBeDisabled();
    rerender(<SqlResultsPanel result={result(false)} onClear={onClear} />);
    expect(screen.getByText('Executed')).toBeInTheDocument();
    expect(screen.getByText('Showing 10 of 25 rows')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'n10' })).toBeInTheDocument();
    expect(screen.queryByRole('cell', { name: 'n11' })).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('division by zero');
    await userEvent.click(screen.getByRole('button', { name: 'Clear Results' }));
    expect(onClear).toHaveBeenCalled();
  });

  it('labels a dry run Validation Only', () => {
    render(<SqlResultsPanel result={result(true)} onClear={() => {}} />);
    expect(screen.getByText('Validation Only')).toBeInTheDocument();
  });
});

describe('SQL page helpers', () => {
  it('writes CSV with quotes doubled and formulas defused', () => {
    expect(
      toCsv([
        { a: 'x,y', b: 'say "hi"' },
        { a: '=1+1', c: null, b: { k: 1 } },
      ]),
    ).toBe('a,b,c\r\n"x,y","say ""hi""",\r\n\'=1+1,"{""k"":1}",\r\n');
  });

  it('reads variables as name=value lines', () => {
    expect(parseVariables('a=1\n# note\n\n b = two=2\nbad')).toEqual({ a: '1', b: ' two=2' });
  });

  it('gives the spec messages for a timeout out of range', () => {
    expect(timeoutError(999)).toBe('Timeout must be at least 1000ms');
    expect(timeoutError(300_001)).toBe('Timeout cannot exceed 5 minutes');
    expect(timeoutError(30_000)).toBeUndefined();
  });
});
