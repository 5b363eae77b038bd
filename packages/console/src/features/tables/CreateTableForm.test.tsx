import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateTableForm } from './CreateTableForm';

function renderForm() {
  const onSubmit = vi.fn();
  const onCancel = vi.fn();
  render(<CreateTableForm isPending={false} onSubmit={onSubmit} onCancel={onCancel} />);
  return { onSubmit, onCancel, user: userEvent.setup() };
}

describe('CreateTableForm', () => {
  it('starts with the locked id column, which cannot be removed, and one column to fill in', () => {
    renderForm();
    expect(screen.getByRole('textbox', { name: 'Column 1 name' })).toHaveValue('id');
    expect(screen.getByRole('textbox', { name: 'Column 1 name' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Column 1 type' })).toHaveValue('number');
    expect(screen.getByRole('checkbox', { name: 'Column 1 Required' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Column 1 Unique' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Remove column 1' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Column 2 name' })).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Remove column 2' })).toBeInTheDocument();
  });

  it('shows the spec messages and sends nothing while the form is wrong', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Table name' }), 'ab');
    await user.click(screen.getByRole('button', { name: 'Create Table' }));
    expect(await screen.findByText('Table name must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Column name is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Column 2 name' }), 'email');
    await user.click(screen.getByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 3 name' }), 'EMAIL');
    await user.click(screen.getByRole('button', { name: 'Create Table' }));
    expect(
      await screen.findByText('Column names must be unique: "EMAIL" is used twice (names ignore case)'),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the table with its columns, types and flags', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Table name' }), 'customers');
    await user.type(screen.getByRole('textbox', { name: 'Description (optional)' }), 'People who buy');
    await user.type(screen.getByRole('textbox', { name: 'Column 2 name' }), 'email');
    await user.click(screen.getByRole('checkbox', { name: 'Column 2 Required' }));
    await user.click(screen.getByRole('checkbox', { name: 'Column 2 Unique' }));
    await user.click(screen.getByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 3 name' }), 'joined');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column 3 type' }), 'date');
    await user.click(screen.getByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 4 name' }), 'dropped');
    await user.click(screen.getByRole('button', { name: 'Remove column 4' }));
    await user.click(screen.getByRole('button', { name: 'Create Table' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'customers',
      description: 'People who buy',
      schema: {
        id: { type: 'number', required: true, unique: true },
        email: { type: 'text', required: true, unique: true },
        joined: { type: 'date', required: false, unique: false },
      },
    });
  });

  it('cancels', async () => {
    const { onCancel, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });
});

describe('CreateTableForm: defaults and dates (issue 35)', () => {
  it('sends a default of the column type, and a date-only column with now', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Table name' }), 'posts');
    await user.type(screen.getByRole('textbox', { name: 'Column 2 name' }), 'status');
    await user.type(screen.getByRole('textbox', { name: 'Column 2 default' }), 'draft');
    await user.click(screen.getByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 3 name' }), 'qty');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column 3 type' }), 'Number');
    await user.type(screen.getByRole('textbox', { name: 'Column 3 default' }), '1');
    await user.click(screen.getByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 4 name' }), 'due');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column 4 type' }), 'date_only');
    await user.type(screen.getByRole('textbox', { name: 'Column 4 default' }), 'now');
    await user.click(screen.getByRole('button', { name: 'Create Table' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'posts',
      description: null,
      schema: {
        id: { type: 'number', required: true, unique: true },
        status: { type: 'text', required: false, unique: false, default: 'draft' },
        qty: { type: 'number', required: false, unique: false, default: 1 },
        due: { type: 'date_only', required: false, unique: false, default: 'now' },
      },
    });
  });

  it('shows the shared message for a default of the wrong type and sends nothing', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Table name' }), 'posts');
    await user.type(screen.getByRole('textbox', { name: 'Column 2 name' }), 'qty');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column 2 type' }), 'Number');
    await user.type(screen.getByRole('textbox', { name: 'Column 2 default' }), 'many');
    await user.click(screen.getByRole('button', { name: 'Create Table' }));
    expect(await screen.findByText('The default of a number column must be a number')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
