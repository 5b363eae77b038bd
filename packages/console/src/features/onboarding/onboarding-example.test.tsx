import { createTableSchema } from '@basalt/shared';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiStepBody, TablesStepBody } from './OnboardingStepBodies';

// Onboarding's example, read from what the person sees: the table it tells them to create must be one Basalt
// creates (not a reserved name such as `users`), and the endpoints it lists must be that table's.

describe('onboarding example table', () => {
  it('shows a table the create form accepts, and its own endpoints', () => {
    render(<TablesStepBody />);
    const figure = screen.getByRole('figure');
    const name = (figure.querySelector('figcaption span')?.textContent ?? '').toLowerCase();
    const rows = within(within(figure).getByRole('table')).getAllByRole('row').slice(1);
    const schema = Object.fromEntries(
      rows.map((row) => {
        const [column, type] = within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent ?? '');
        return [column, { type, required: false, unique: false }];
      }),
    );
    const parsed = createTableSchema.safeParse({ name, schema });
    expect(parsed.error?.issues ?? []).toEqual([]);

    render(<ApiStepBody />);
    const paths = screen.getAllByRole('listitem').map((item) => item.textContent ?? '');
    expect(paths.length).toBe(5);
    for (const path of paths) expect(path).toContain(`/api/${name}`);
  });
});
