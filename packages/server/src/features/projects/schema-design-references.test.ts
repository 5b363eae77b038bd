import type { LayoutElement, LayoutField } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectAs, linkTableAs, type Member, signInMember } from '../../testing/projects.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The relations of a design: a field may reference another element (or its own, a tree); "Create tables from this
// design" makes them reference columns, in any order (a table referenced before it is made, two tables that
// reference each other), refuses a reference to nothing or from a field that is no number, and "Import existing
// tables" brings the references of the tables back onto the canvas.

type Field = [name: string, type: string, references?: string, onDelete?: 'restrict' | 'cascade' | 'set null'];

const element = (name: string, fields: Field[]): LayoutElement => ({
  id: `el-${name}`,
  name,
  type: 'table',
  position: { x: 0, y: 0 },
  fields: [
    { id: `el-${name}.id`, name: 'id', type: 'integer', primary: true },
    ...fields.map(([field, type, table, onDelete]) => ({
      id: `el-${name}.${field}`,
      name: field,
      type,
      ...(table ? { references: { table, ...(onDelete ? { onDelete } : {}) } } : {}),
    })),
  ],
});

describe.each(testDialects)('design relations (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  let projectId: string;

  const as = (method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: alice.headers, ...(json === undefined ? {} : { json }) });
  const save = async (elements: LayoutElement[]) => {
    const current = await as('GET', `/api/projects/${projectId}/schema`);
    const version = current.status === 200 ? current.body.layout.version : 0;
    return as('POST', `/api/projects/${projectId}/schema`, { layout: { elements, version } });
  };
  const tableNamed = async (name: string) =>
    (await as('GET', '/api/tables')).body.find((t: { name: string }) => t.name === name);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    projectId = await createProjectAs(server, alice, 'Relations');
  });
  afterAll(() => server?.close());

  it('refuses a layout whose references are malformed, and a design whose references cannot be made', async () => {
    const malformed = element('things', [['owner', 'integer']]);
    const broken = {
      ...malformed,
      fields: [{ name: 'owner', type: 'integer', references: { table: 'x', onDelete: 'explode' } }],
    };
    expect((await save([broken as LayoutElement])).status).toBe(400);
    expect(
      (await save([{ ...malformed, fields: [{ name: 'o', type: 'integer', references: 'x' }] } as never])).status,
    ).toBe(400);

    expect(
      (
        await save([
          element('things', [
            ['owner', 'integer', 'nowhere'],
            ['label', 'string', 'things'],
          ]),
        ])
      ).status,
    ).toBe(200);
    const plan = await as('POST', `/api/projects/${projectId}/schema/plan`);
    expect(plan.body.ready).toBe(false);
    expect(plan.body.steps[0].refusals).toEqual([
      'Field "label" references "things", but only a number field can reference a table',
      'Field "owner" references "nowhere", which is neither a table of this design nor one of yours',
    ]);
    expect((await as('POST', `/api/projects/${projectId}/schema/apply`)).status).toBe(409);
    expect(await tableNamed('things')).toBeUndefined();
  });

  it('makes the references of a design, in any order, with trees and tables that reference each other', async () => {
    const saved = await save([
      element('stories', [
        ['title', 'string'],
        ['writer_id', 'integer', 'writers', 'cascade'],
      ]),
      element('writers', [['name', 'string']]),
      element('sections', [
        ['title', 'string'],
        ['parent_id', 'integer', 'sections', 'set null'],
      ]),
      element('teams', [['lead_id', 'integer', 'people']]),
      element('people', [['team_id', 'integer', 'teams']]),
    ]);
    expect(saved.status, saved.text).toBe(200);
    const plan = await as('POST', `/api/projects/${projectId}/schema/plan`);
    expect(plan.body.ready, JSON.stringify(plan.body)).toBe(true);
    expect(plan.body.steps[0].changes).toContain('Add column writer_id (number, references writers)');
    const applied = await as('POST', `/api/projects/${projectId}/schema/apply`);
    expect(applied.status, applied.text).toBe(200);

    expect((await tableNamed('stories')).schema.writer_id).toMatchObject({
      type: 'number',
      references: { table: 'writers', onDelete: 'cascade' },
    });
    expect((await tableNamed('sections')).schema.parent_id.references).toEqual({
      table: 'sections',
      onDelete: 'set null',
    });
    expect((await tableNamed('teams')).schema.lead_id.references).toEqual({ table: 'people', onDelete: 'restrict' });
    expect((await tableNamed('people')).schema.team_id.references).toEqual({ table: 'teams', onDelete: 'restrict' });
    // The references hold: a story of no writer is refused.
    const stories = await tableNamed('stories');
    const orphan = await as('POST', `/api/tables/${stories.id}/records`, { title: 'x', writer_id: 999 });
    expect(orphan.status).toBe(409);
    const again = await as('POST', `/api/projects/${projectId}/schema/plan`);
    expect(again.body.steps.map((s: { action: string }) => s.action)).toEqual(Array(5).fill('unchanged'));
  });

  it('brings the references of imported tables onto the canvas', async () => {
    const made = await as('POST', '/api/tables', {
      name: 'chapters',
      schema: { story_id: { type: 'number', references: { table: 'stories', onDelete: 'cascade' } } },
    });
    expect(made.status, made.text).toBe(201);
    await linkTableAs(server, alice, projectId, made.body.id);
    const imported = await as('POST', `/api/projects/${projectId}/schema/import`);
    const chapters = imported.body.layout.elements.find((e: LayoutElement) => e.name === 'chapters');
    expect(chapters.fields.find((f: LayoutField) => f.name === 'story_id').references).toEqual({
      table: 'stories',
      onDelete: 'cascade',
    });
  });
});
