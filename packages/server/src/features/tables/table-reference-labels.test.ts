import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppTable, type Developer, startDeveloper } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { planSchemaChange } from './schema-plan.js';

// A reference column's label (`references.label`): the column of the referenced table the console shows a
// referenced row by. It is a display setting kept with the column: checked when set (a column of that table),
// changed alone as a schema change of its own (previewed, in history, revertable), and kept through the rest.

const ref = (label?: string) => ({
  type: 'number' as const,
  references: { table: 'writers', onDelete: 'restrict' as const, ...(label === undefined ? {} : { label }) },
});

describe('planSchemaChange and a reference label', () => {
  const before = { writer: { type: 'number' as const, required: false, unique: false, references: ref().references } };
  it('plans a label change alone as one metadata step, and its removal', () => {
    const after = { writer: { ...before.writer, references: { ...before.writer.references, label: 'name' } } };
    expect(planSchemaChange(before, after).steps).toEqual([
      { kind: 'setReferenceLabel', column: 'writer', label: 'name' },
    ]);
    expect(planSchemaChange(after, before).steps).toEqual([
      { kind: 'setReferenceLabel', column: 'writer', label: undefined },
    ]);
    expect(planSchemaChange(after, after).steps).toEqual([]);
  });
});

describe.each(testDialects)('reference labels on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let booksId = 0;

  const api = (method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: dev.headers, ...(json === undefined ? {} : { json }) });
  const schemaOf = async (id: number) => (await api('GET', `/api/tables/${id}`)).body.schema;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    await createAppTable(server, dev, { name: 'writers', schema: { name: { type: 'text' }, born: { type: 'date' } } });
    booksId = await createAppTable(server, dev, {
      name: 'books',
      schema: { title: { type: 'text' }, writer: ref('name') },
    });
  });
  afterAll(() => server.close());

  it('keeps the label a table is created with', async () => {
    expect((await schemaOf(booksId)).writer.references).toEqual({
      table: 'writers',
      onDelete: 'restrict',
      label: 'name',
    });
  });

  it.each([
    ['a column the referenced table lacks', { writer: ref('nickname') }, 'is not a column of \\"writers\\"'],
    ['a label that is no name', { writer: ref('na me') }, 'A label names a column of the referenced table'],
    ['a label that is not text', { writer: { type: 'number', references: { table: 'writers', label: 7 } } }, 'label'],
  ])('refuses %s with a 400 that names the column', async (_what, schema, message) => {
    const res = await api('POST', '/api/tables', { name: 'bad_labels', schema });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
    const change = await api('PUT', `/api/tables/${booksId}/schema`, {
      schema: { title: { type: 'text' }, ...schema },
    });
    expect(change.status).toBe(400);
    expect((await schemaOf(booksId)).writer.references.label).toBe('name');
  });

  it('previews, applies and reverts a label change alone, and keeps it through other changes', async () => {
    const relabelled = { title: { type: 'text' }, writer: ref('born') };
    const preview = await api('POST', `/api/tables/${booksId}/schema/preview`, { schema: relabelled });
    expect(preview.body.changes).toEqual(['Show the rows "writer" references by "born"']);
    expect((await api('PUT', `/api/tables/${booksId}/schema`, { schema: relabelled })).status).toBe(200);
    expect((await schemaOf(booksId)).writer.references.label).toBe('born');

    const history = await api('GET', `/api/history?tableId=${booksId}`);
    const [latest] = history.body.data;
    expect(latest.changeType).toBe('SCHEMA_UPDATE');
    expect((await api('POST', `/api/history/${latest.id}/revert`)).status).toBe(200);
    expect((await schemaOf(booksId)).writer.references.label).toBe('name');

    // Another column added, the reference column renamed: the label stays.
    const renamed = { title: { type: 'text' }, pages: { type: 'number' }, author: ref('name') };
    const res = await api('PUT', `/api/tables/${booksId}/schema`, { schema: renamed, renames: { writer: 'author' } });
    expect(res.status).toBe(200);
    expect((await schemaOf(booksId)).author.references).toMatchObject({ table: 'writers', label: 'name' });
  });

  it('lets the label column of the referenced table go, and the reference keeps its label', async () => {
    const writers = (await api('GET', '/api/tables')).body.find((t: { name: string }) => t.name === 'writers');
    const res = await api('PUT', `/api/tables/${writers.id}/schema`, { schema: { born: { type: 'date' } } });
    expect(res.status).toBe(200);
    // "name" is gone: the label stays as it was (the console falls back); unset, the reference has none.
    expect((await schemaOf(booksId)).author.references.label).toBe('name');
    const unset = await api('PUT', `/api/tables/${booksId}/schema`, {
      schema: { title: { type: 'text' }, pages: { type: 'number' }, author: ref() },
    });
    expect(unset.status).toBe(200);
    expect((await schemaOf(booksId)).author.references).toEqual({ table: 'writers', onDelete: 'restrict' });
  });
});
