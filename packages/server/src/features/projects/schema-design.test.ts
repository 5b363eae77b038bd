import type { LayoutElement } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMemberAs,
  createProjectAs,
  createTableAs,
  linkTableAs,
  type Member,
  signInMember,
} from '../../testing/projects.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// From design to tables: the plan of what a layout would create or change with its refusals, applying
// it in one transaction (or not at all), and importing the linked tables onto the canvas; by role.

const element = (id: string, name: string, fields: Array<[string, string, boolean?]>): LayoutElement => ({
  id,
  name,
  type: 'table',
  position: { x: 0, y: 0 },
  fields: fields.map(([field, type, primary]) => ({
    id: `${id}.${field}`,
    name: field,
    type,
    ...(primary ? { primary } : {}),
  })),
});

describe.each(testDialects)('design to tables (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  let bob: Member;
  let viewer: Member;
  let projectId: string;

  const as = (who: Member, method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: who.headers, ...(json === undefined ? {} : { json }) });

  async function saveLayout(elements: LayoutElement[]) {
    const current = await as(alice, 'GET', `/api/projects/${projectId}/schema`);
    const version = current.status === 200 ? current.body.layout.version : 0;
    // Replace the design: delete what is there, then add the new elements (both merged as one update).
    const res = await as(alice, 'POST', `/api/projects/${projectId}/schema`, { layout: { elements, version } });
    expect(res.status, res.text).toBe(200);
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    bob = await signInMember(server, 'bob');
    viewer = await signInMember(server, 'vera');
    projectId = await createProjectAs(server, alice, 'Design');
    await addMemberAs(server, alice, projectId, bob, 'DEVELOPER');
    await addMemberAs(server, alice, projectId, viewer, 'VIEWER');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers 404 before a layout exists, and 403 to a VIEWER', async () => {
    expect((await as(alice, 'POST', `/api/projects/${projectId}/schema/plan`)).status).toBe(404);
    const refused = await as(viewer, 'POST', `/api/projects/${projectId}/schema/plan`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('(VIEWER)');
    expect((await as(viewer, 'POST', `/api/projects/${projectId}/schema/import`)).status).toBe(403);
  });

  it('refuses unsafe designs with reasons and creates nothing', async () => {
    await saveLayout([
      element('a', 'Bad name', [
        ['id', 'integer', true],
        ['title', 'string'],
      ]),
      element('b', 'gadgets', [
        ['id', 'integer', true],
        ['shape', 'polygon'],
      ]),
    ]);
    const plan = await as(alice, 'POST', `/api/projects/${projectId}/schema/plan`);
    expect(plan.status).toBe(200);
    expect(plan.body.ready).toBe(false);
    const [bad, gadgets] = plan.body.steps;
    expect(bad).toMatchObject({ name: 'Bad name', action: 'refused' });
    expect(bad.refusals[0]).toContain('Table name must start with a letter');
    expect(gadgets.refusals).toEqual(expect.arrayContaining([expect.stringContaining('"polygon"')]));
    const applied = await as(alice, 'POST', `/api/projects/${projectId}/schema/apply`);
    expect(applied.status).toBe(409);
    expect((await as(alice, 'GET', '/api/tables')).body).toEqual([]);
  });

  it('creates new tables linked to the project, maps types, and changes existing ones without dropping', async () => {
    const existing = await createTableAs(server, bob, 'orders');
    await linkTableAs(server, bob, projectId, existing);
    const layout = await as(alice, 'GET', `/api/projects/${projectId}/schema`);
    await as(alice, 'POST', `/api/projects/${projectId}/schema`, {
      layout: {
        version: layout.body.layout.version,
        elements: [
          element('c', 'customers', [
            ['id', 'integer', true],
            ['email', 'string', true],
            ['born', 'datetime'],
            ['score', 'float'],
            ['tags', 'array'],
          ]),
          element('o', 'orders', [
            ['id', 'integer', true],
            ['title', 'string'],
            ['total', 'decimal'],
          ]),
        ],
      },
    });
    const plan = await as(alice, 'POST', `/api/projects/${projectId}/schema/plan`);
    expect(plan.body.ready, JSON.stringify(plan.body)).toBe(true);
    expect(plan.body.steps.map((s: { name: string; action: string }) => `${s.name}:${s.action}`)).toEqual([
      'customers:create',
      'orders:update',
    ]);
    const applied = await as(alice, 'POST', `/api/projects/${projectId}/schema/apply`);
    expect(applied.status, applied.text).toBe(200);
    const customers = (await as(alice, 'GET', '/api/tables')).body.find(
      (t: { name: string }) => t.name === 'customers',
    );
    expect(customers.schema).toMatchObject({
      email: { type: 'text', required: true, unique: true },
      born: { type: 'date' },
      score: { type: 'number' },
      tags: { type: 'array' },
    });
    const linked = (await as(bob, 'GET', `/api/projects/${projectId}/tables`)).body.map(
      (t: { name: string }) => t.name,
    );
    expect(linked.sort()).toEqual(['customers', 'orders']);
    // Bob's table gained `total` and kept `title`; history names Alice as who changed it.
    const orders = (await as(bob, 'GET', `/api/tables/${existing}`)).body;
    expect(Object.keys(orders.schema)).toEqual(['id', 'title', 'total']);
    const history = await as(bob, 'GET', `/api/history?tableId=${existing}&limit=1`);
    expect(history.body.data[0]).toMatchObject({ changeType: 'SCHEMA_UPDATE', userId: alice.accountId });
    // Planning again: nothing left to do.
    const again = await as(alice, 'POST', `/api/projects/${projectId}/schema/plan`);
    expect(again.body.steps.map((s: { action: string }) => s.action)).toEqual(['unchanged', 'unchanged']);
  });

  it('imports the linked tables the canvas does not show', async () => {
    const other = await createTableAs(server, bob, 'invoices');
    await linkTableAs(server, bob, projectId, other);
    const imported = await as(bob, 'POST', `/api/projects/${projectId}/schema/import`);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.imported).toBe(1);
    const names = imported.body.layout.elements.map((e: { name: string }) => e.name);
    expect(names).toEqual(['customers', 'orders', 'invoices']);
    const invoices = imported.body.layout.elements.at(-1);
    expect(invoices.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
      'id:integer',
      'title:text',
    ]);
    expect((await as(bob, 'POST', `/api/projects/${projectId}/schema/import`)).body.imported).toBe(0);
  });
});
