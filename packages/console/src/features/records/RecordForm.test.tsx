import type { TableSchema } from '@basalt/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RecordForm } from './RecordForm';
import { buildCreatePayload } from './record-values';

const schema: TableSchema = {
  id: { type: 'number', required: true, unique: true },
  title: { type: 'text', required: true, unique: true },
  price: { type: 'number', required: false, unique: false },
  in_stock: { type: 'boolean', required: false, unique: false },
  released: { type: 'date', required: false, unique: false },
  meta: { type: 'json', required: false, unique: false },
  tags: { type: 'array', required: false, unique: false },
};

function renderForm(record?: Record<string, unknown>) {
  const onSubmit = vi.fn();
  render(
    <RecordForm
      schema={schema}
      record={record}
      submitLabel="Add Record"
      pendingLabel="Adding..."
      isPending={false}
      onSubmit={onSubmit}
      onCancel={() => {}}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe('RecordForm', () => {
  it('shows one input per column but id, by type, with required fields marked and browser-required', () => {
    renderForm();
    expect(screen.queryByLabelText('id')).not.toBeInTheDocument();
    const title = screen.getByRole('textbox', { name: 'title' });
    expect(title).toBeRequired();
    expect(screen.getByText('*')).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: 'price' })).not.toBeRequired();
    const inStock = screen.getByRole('combobox', { name: 'in_stock' });
    expect([...inStock.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Not set', 'True', 'False']);
    expect(screen.getByLabelText('released')).toHaveAttribute('type', 'date');
    expect(screen.getByRole('textbox', { name: 'meta' }).tagName).toBe('TEXTAREA');
  });

  it('submits the typed values, which the create payload converts', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'title' }), 'Widget');
    await user.type(screen.getByRole('spinbutton', { name: 'price' }), '9.5');
    await user.selectOptions(screen.getByRole('combobox', { name: 'in_stock' }), 'True');
    // user-event reads "[[" as a literal "[".
    await user.type(screen.getByRole('textbox', { name: 'tags' }), '[["a"]');
    await user.click(screen.getByRole('button', { name: 'Add Record' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const values = onSubmit.mock.calls[0]?.[0];
    expect(buildCreatePayload(schema, values)).toEqual({ title: 'Widget', price: 9.5, in_stock: true, tags: ['a'] });
  });

  it('says what is wrong with the server’s words and sends nothing', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'title' }), 'x');
    await user.type(screen.getByRole('textbox', { name: 'tags' }), 'not json');
    await user.click(screen.getByRole('button', { name: 'Add Record' }));
    expect(await screen.findByText('"tags" must be a JSON array')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('starts from the record when editing', () => {
    renderForm({
      id: 3,
      title: 'Widget',
      price: 12,
      in_stock: false,
      released: '2025-05-01T00:00:00.000Z',
      meta: { a: 1 },
    });
    expect(screen.getByRole('textbox', { name: 'title' })).toHaveValue('Widget');
    expect(screen.getByRole('spinbutton', { name: 'price' })).toHaveValue(12);
    expect(screen.getByRole('combobox', { name: 'in_stock' })).toHaveValue('false');
    expect(screen.getByLabelText('released')).toHaveValue('2025-05-01');
    expect(screen.getByRole('textbox', { name: 'meta' })).toHaveValue('{\n  "a": 1\n}');
  });
});
