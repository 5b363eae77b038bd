import {
  type ColumnType,
  createTableSchema,
  isSystemColumnName,
  type LayoutElement,
  type TableSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { actorOn } from '../project-access/project-access.js';
import {
  changeTable,
  createTable,
  listTables,
  previewTableChange,
  schemaWithIdColumn,
} from '../tables/tables.service.js';
import { memberProject } from './projects.service.js';
import { insertTableLink, listLinkedTableRows } from './projects.store.js';
import { readLayout } from './schema-layouts.service.js';

// From design to tables and back. "Create tables from this design" turns a project's
// layout into real Basalt tables: each element becomes a table of the caller's (linked to the project), or
// changes the table of that name the project already has (its own or one linked to the project), adding and
// retyping columns, never dropping one. The plan says what will be created or changed and refuses, with reasons,
// what is unsafe (a name Basalt cannot take, a type it cannot map, a change the rows cannot satisfy); applying
// runs every step in one transaction, or none when any is refused. "Import existing tables" is schema-import.ts.

/** TYPE_MAP maps the editor's field types (lower-cased) to Basalt's six column types. */
export const TYPE_MAP: Readonly<Record<string, ColumnType>> = {
  integer: 'number',
  int: 'number',
  bigint: 'number',
  smallint: 'number',
  serial: 'number',
  float: 'number',
  double: 'number',
  decimal: 'number',
  numeric: 'number',
  real: 'number',
  number: 'number',
  string: 'text',
  text: 'text',
  varchar: 'text',
  char: 'text',
  uuid: 'text',
  email: 'text',
  url: 'text',
  boolean: 'boolean',
  bool: 'boolean',
  date: 'date',
  datetime: 'date',
  timestamp: 'date',
  timestamptz: 'date',
  time: 'date',
  date_only: 'date_only',
  json: 'json',
  jsonb: 'json',
  object: 'json',
  array: 'array',
  list: 'array',
};

/** DesignStep is what one element of the layout would do. */
export interface DesignStep {
  elementId: string;
  name: string;
  action: 'create' | 'update' | 'unchanged' | 'refused';
  tableId: number | null;
  changes: string[];
  refusals: string[];
}

/** DesignPlan is every element's step; `ready` when none is refused. */
export interface DesignPlan {
  steps: DesignStep[];
  ready: boolean;
}

interface Target {
  id: number;
  name: string;
  schema: TableSchema;
  actor: Actor;
}

// The columns an element asks for, or the reasons it cannot have them.
function columnsOf(element: LayoutElement): { schema: TableSchema; refusals: string[] } {
  const schema: TableSchema = {};
  const refusals: string[] = [];
  const seen = new Set<string>();
  for (const field of element.fields) {
    const name = field.name.trim();
    if (isSystemColumnName(name)) continue;
    const type = TYPE_MAP[field.type.trim().toLowerCase()];
    if (!type) {
      refusals.push(`Field "${name}" has the type "${field.type}", which is not one of Basalt's column types`);
      continue;
    }
    if (seen.has(name.toLowerCase())) refusals.push(`Field "${name}" appears twice`);
    seen.add(name.toLowerCase());
    schema[name] = { type, required: Boolean(field.primary), unique: Boolean(field.primary) };
    if (field.references) {
      const references = { table: field.references.table.trim(), onDelete: field.references.onDelete ?? 'restrict' };
      if (type !== 'number') {
        refusals.push(
          `Field "${name}" references "${references.table}", but only a number field can reference a table`,
        );
      } else {
        schema[name] = { ...schema[name], references };
      }
    }
  }
  return { schema, refusals };
}

// A reference names a table of the design or one the caller already has (or its own element: a tree).
function referenceRefusals(schema: TableSchema, known: (name: string) => boolean): string[] {
  return Object.entries(schema).flatMap(([column, definition]) =>
    definition.references && !known(definition.references.table)
      ? [
          `Field "${column}" references "${definition.references.table}", which is neither a table of this design nor one of yours`,
        ]
      : [],
  );
}

// The design's columns laid over a table's: new columns added, types changed, references added; none dropped.
function mergedSchema(current: TableSchema, design: TableSchema): TableSchema {
  const next: TableSchema = { ...current };
  for (const [column, definition] of Object.entries(design)) {
    const existing = next[column];
    if (!existing) next[column] = definition;
    else {
      next[column] = {
        ...existing,
        type: definition.type,
        ...(definition.references ? { references: { ...existing.references, ...definition.references } } : {}),
      };
    }
  }
  return next;
}

const describeColumn = (column: string, definition: TableSchema[string]) =>
  `Add column ${column} (${definition.type}${definition.references ? `, references ${definition.references.table}` : ''})`;

async function targetsOf(db: Db, actor: Actor, projectId: string): Promise<Map<string, Target>> {
  const targets = new Map<string, Target>();
  for (const row of await listLinkedTableRows(db.kysely, projectId)) {
    const id = Number(row.id);
    const tableActor = await actorOn(db, actor, { tableId: id });
    targets.set(row.name.toLowerCase(), {
      id,
      name: row.name,
      schema: JSON.parse(row.schema) as TableSchema,
      actor: tableActor,
    });
  }
  for (const table of await listTables(db, actor)) {
    const { id: _system, ...schema } = table.schema;
    targets.set(table.name.toLowerCase(), { id: table.id, name: table.name, schema, actor });
  }
  return targets;
}

async function stepOf(
  db: Db,
  element: LayoutElement,
  target: Target | undefined,
  known: (name: string) => boolean,
): Promise<DesignStep> {
  const name = element.name.trim();
  const { schema, refusals } = columnsOf(element);
  refusals.push(...referenceRefusals(schema, known));
  const step: DesignStep = { elementId: element.id, name, action: 'create', tableId: null, changes: [], refusals };
  if (!target) {
    const valid = createTableSchema.safeParse({ name, schema });
    if (!valid.success) step.refusals.push(...valid.error.issues.map((issue) => issue.message));
    step.changes = [`Create table ${name}`, ...Object.entries(schema).map(([c, d]) => describeColumn(c, d))];
  } else {
    step.tableId = target.id;
    const next = mergedSchema(target.schema, schema);
    try {
      const preview = await previewTableChange(db, target.actor, target.id, { schema: schemaWithIdColumn(next) });
      step.changes = preview.changes;
      if (preview.refusal) step.refusals.push(preview.refusal.message);
    } catch (error) {
      step.refusals.push(error instanceof Error ? error.message : 'This table cannot be changed');
    }
    step.action = step.changes.length === 0 ? 'unchanged' : 'update';
  }
  if (step.refusals.length > 0) step.action = 'refused';
  return step;
}

async function layoutOf(db: Db, projectId: string) {
  const layout = await readLayout(db, projectId);
  if (!layout) throw notFound('No schema layout has been saved for this project yet', 'layout_not_found');
  return layout;
}

/** planDesign tells what creating tables from the project's layout would do (DEVELOPER and up). */
export async function planDesign(db: Db, actor: Actor, projectId: string): Promise<DesignPlan> {
  await memberProject(db, actor, projectId, 'schema.write');
  const layout = await layoutOf(db, projectId);
  const targets = await targetsOf(db, actor, projectId);
  const designed = new Set(layout.elements.map((e) => e.name.trim().toLowerCase()));
  const known = (name: string) => designed.has(name.toLowerCase()) || targets.has(name.toLowerCase());
  const steps: DesignStep[] = [];
  const names = new Set<string>();
  for (const element of layout.elements) {
    const step = await stepOf(db, element, targets.get(element.name.trim().toLowerCase()), known);
    if (names.has(step.name.toLowerCase())) {
      step.refusals.push(`Another table of the design is also named "${step.name}"`);
      step.action = 'refused';
    }
    names.add(step.name.toLowerCase());
    steps.push(step);
  }
  return { steps, ready: steps.every((s) => s.action !== 'refused') };
}

/** applyDesign creates and changes the tables of the plan in one transaction; 409 with the plan when refused. */
export async function applyDesign(db: Db, actor: Actor, projectId: string): Promise<DesignPlan> {
  const plan = await planDesign(db, actor, projectId);
  if (!plan.ready) {
    const reasons = plan.steps.flatMap((s) => s.refusals.map((r) => `${s.name}: ${r}`));
    throw conflict(`Some tables cannot be created or changed. ${reasons.join('; ')}`, 'design_refused', {
      details: { plan },
    });
  }
  const layout = await layoutOf(db, projectId);
  const byId = new Map(layout.elements.map((e) => [e.id, e]));
  return db.transaction(async (scope) => {
    const targets = await targetsOf(scope, actor, projectId);
    const done: DesignStep[] = [];
    // A reference to a table the design has not made yet waits for the second pass (a cycle has no order).
    const made = new Set(targets.keys());
    const later: Array<{ id: number; actor: Actor; schema: TableSchema; references: TableSchema }> = [];
    for (const step of plan.steps) {
      const element = byId.get(step.elementId);
      if (!element || step.action === 'unchanged') {
        done.push(step);
        continue;
      }
      const self = step.name.toLowerCase();
      const { now, waiting } = splitReferences(columnsOf(element).schema, (n) => made.has(n) || n === self);
      const target = targets.get(self);
      if (target) {
        const schema = mergedSchema(target.schema, now);
        await changeTable(scope, target.actor, target.id, { schema, renames: {} });
        if (Object.keys(waiting).length > 0)
          later.push({ id: target.id, actor: target.actor, schema, references: waiting });
        done.push(step);
      } else {
        const created = await createTable(scope, actor, { name: step.name, schema: schemaWithIdColumn(now) });
        await insertTableLink(scope.kysely, projectId, created.id, new Date().toISOString());
        made.add(self);
        if (Object.keys(waiting).length > 0) later.push({ id: created.id, actor, schema: now, references: waiting });
        done.push({ ...step, tableId: created.id });
      }
    }
    for (const table of later) {
      await changeTable(scope, table.actor, table.id, {
        schema: mergedSchema(table.schema, table.references),
        renames: {},
      });
    }
    scope.publish('project.members', { projectId, accountId: null });
    return { steps: done, ready: true };
  });
}

// The columns of a design element whose references can be made now, and those whose table comes later.
function splitReferences(schema: TableSchema, exists: (lowerName: string) => boolean) {
  const now: TableSchema = {};
  const waiting: TableSchema = {};
  for (const [column, definition] of Object.entries(schema)) {
    const { references, ...rest } = definition;
    if (references && !exists(references.table.toLowerCase())) {
      now[column] = rest;
      waiting[column] = definition;
    } else now[column] = definition;
  }
  return { now, waiting };
}
