import {
  type ColumnDefault,
  type ColumnDefinition,
  type ColumnReference,
  type ColumnType,
  engineColumnMessage,
  findDuplicateName,
  isEngineColumnName,
  isSystemColumnDefinition,
  isSystemColumnName,
  systemColumnMessage,
  type TableSchema,
} from '@basalt/shared';
import type { Conversion } from '../../db/column-types/column-type.js';
import { columnTypes } from '../../db/column-types/registry.js';
import { identifierProblem } from '../../db/identifiers.js';
import { ApiError } from '../../http/errors.js';

// A schema change is planned as a pure diff (STYLE.md, Server rule 6): planSchemaChange compares two schemas
// and lists abstract steps in the order they must run; the store turns each step into SQL for its engine and
// runs them all in one transaction. Steps name columns as they are called at that moment, so every step
// after a rename uses the new name. Order: drops, renames, relaxed flags, retypes, adds, tightened flags
// (an index asked for or no longer asked for is a flag too: `indexed`, and a search index: `search`). A default is metadata the record path
// applies (records/record-values.ts); a column added with one gives the existing rows its value.

/** SchemaStep is one abstract change of a user table. */
export type SchemaStep =
  | { kind: 'dropColumn'; column: string; definition: ColumnDefinition }
  | { kind: 'renameColumn'; column: string; to: string }
  | { kind: 'dropUnique'; column: string; transient: boolean }
  | { kind: 'dropRequired'; column: string }
  | { kind: 'retypeColumn'; column: string; from: ColumnType; to: ColumnType; conversion: Conversion }
  | { kind: 'addColumn'; column: string; definition: ColumnDefinition }
  | { kind: 'setRequired'; column: string }
  | { kind: 'addUnique'; column: string; transient: boolean }
  | { kind: 'setReference'; column: string; references: ColumnReference | null }
  | { kind: 'setReferenceLabel'; column: string; label: string | undefined }
  | { kind: 'dropIndex'; column: string }
  | { kind: 'addIndex'; column: string }
  | { kind: 'dropSearch'; column: string }
  | { kind: 'addSearch'; column: string }
  | { kind: 'setDefault'; column: string; value: ColumnDefault | undefined };

/** SchemaStepKind names the kinds of step. */
export type SchemaStepKind = SchemaStep['kind'];

/**
 * PreconditionCheck is what the existing rows must satisfy, and what the store counts (offending rows):
 * tableEmpty – every row; noNulls – rows where the column is NULL; noDuplicates – rows whose non-NULL value
 * another row shares; valuesConvert – rows whose non-NULL value fails `columnTypes[to].convertValue(v, from)`.
 */
export type PreconditionCheck = 'tableEmpty' | 'noNulls' | 'noDuplicates' | 'valuesConvert';

/**
 * SchemaPrecondition is checked inside the transaction just before step `step` runs, against the table as
 * the earlier steps left it; a count above zero refuses the whole change (refusalMessage) and rolls it back.
 */
export interface SchemaPrecondition {
  step: number;
  check: PreconditionCheck;
  column: string;
  /** The conversion to try, for valuesConvert. */
  from?: ColumnType;
  to?: ColumnType;
  /** The refusal with placeholders {count}, {rows} (row/rows) and {have} (has/have); see refusalMessage. */
  message: string;
}

/** SchemaChangePlan is the ordered steps of a change and the checks they need. */
export interface SchemaChangePlan {
  steps: SchemaStep[];
  preconditions: SchemaPrecondition[];
}

/** SchemaChangeError is a change that cannot be planned (400) or that the rows refuse (409, schema_change_refused). */
export class SchemaChangeError extends ApiError {
  constructor(
    message: string,
    readonly column: string | null = null,
    status = 400,
    code = 'invalid_schema_change',
  ) {
    super(status, code, message, column === null ? {} : { fieldErrors: { [column]: [message] } });
    this.name = 'SchemaChangeError';
  }
}

/** refusalMessage fills a precondition's message with the number of offending rows. */
export function refusalMessage(precondition: SchemaPrecondition, count: number): string {
  return precondition.message
    .replaceAll('{count}', String(count))
    .replaceAll('{rows}', count === 1 ? 'row' : 'rows')
    .replaceAll('{have}', count === 1 ? 'has' : 'have');
}

/** schemaChangeRefused is the 409 for a precondition that `count` rows break. */
export function schemaChangeRefused(precondition: SchemaPrecondition, count: number): SchemaChangeError {
  return new SchemaChangeError(refusalMessage(precondition, count), precondition.column, 409, 'schema_change_refused');
}

type Entry = [string, ColumnDefinition];

// System columns are implicit: an exact system definition is dropped from the diff, anything else is refused.
function userEntries(schema: TableSchema, side: 'prev' | 'next'): Entry[] {
  const entries: Entry[] = [];
  for (const [name, definition] of Object.entries(schema)) {
    if (isSystemColumnName(name)) {
      if (side === 'next' && !isSystemColumnDefinition(name, definition)) {
        throw new SchemaChangeError(systemColumnMessage(name), name);
      }
      continue;
    }
    if (side === 'next') {
      const problem = identifierProblem(name, 'column');
      if (problem !== null) throw new SchemaChangeError(`${problem}: "${name}"`, name);
    }
    entries.push([name, definition]);
  }
  if (side === 'next') {
    const duplicate = findDuplicateName(entries.map(([name]) => name));
    if (duplicate !== null) {
      throw new SchemaChangeError(
        `Column names must be unique: "${duplicate}" is used twice (names ignore case)`,
        duplicate,
      );
    }
  }
  return entries;
}

function checkRenames(
  prev: Map<string, ColumnDefinition>,
  next: Map<string, ColumnDefinition>,
  renames: Record<string, string>,
) {
  const targets = new Set<string>();
  for (const [from, to] of Object.entries(renames)) {
    if (isSystemColumnName(from) || isSystemColumnName(to)) {
      throw new SchemaChangeError(systemColumnMessage(isSystemColumnName(from) ? from : to), from);
    }
    if (!prev.has(from))
      throw new SchemaChangeError(`Column "${from}" cannot be renamed: the table has no such column`, from);
    if (!next.has(to)) {
      throw new SchemaChangeError(
        `Column "${from}" is renamed to "${to}", but the new schema has no column "${to}"`,
        to,
      );
    }
    if (isEngineColumnName(to)) throw new SchemaChangeError(engineColumnMessage(to), to);
    if (targets.has(to)) throw new SchemaChangeError(`Two columns cannot both be renamed to "${to}"`, to);
    targets.add(to);
  }
}

// Renames run one at a time, so a rename whose new name is still held by another renamed column waits
// for that one; a cycle (a swap) has no such order and is refused.
function orderRenames(renames: Array<[string, string]>, live: Set<string>): Array<[string, string]> {
  const ordered: Array<[string, string]> = [];
  const pending = [...renames];
  const names = new Set([...live].map((n) => n.toLowerCase()));
  while (pending.length > 0) {
    const index = pending.findIndex(
      ([from, to]) => to.toLowerCase() === from.toLowerCase() || !names.has(to.toLowerCase()),
    );
    if (index === -1) {
      const list = pending.map(([from, to]) => `"${from}" → "${to}"`).join(', ');
      throw new SchemaChangeError(`Columns cannot swap names in one change (${list}); rename them in two changes`);
    }
    const [rename] = pending.splice(index, 1);
    if (!rename) break;
    names.delete(rename[0].toLowerCase());
    names.add(rename[1].toLowerCase());
    ordered.push(rename);
  }
  return ordered;
}

/**
 * planSchemaChange diffs two schemas of one table into ordered steps and their preconditions. Renames are
 * explicit (old name → new name); without one, a column missing from `next` is dropped and a new name is
 * added — never guessed to be a rename. System columns (id, created_at, updated_at) are implicit and cannot
 * be changed. Throws SchemaChangeError for a change that no data could make valid.
 */
export function planSchemaChange(
  prev: TableSchema,
  next: TableSchema,
  renames: Record<string, string> = {},
): SchemaChangePlan {
  const prevEntries = userEntries(prev, 'prev');
  const nextEntries = userEntries(next, 'next');
  const prevMap = new Map(prevEntries);
  const nextMap = new Map(nextEntries);
  const activeRenames = Object.entries(renames).filter(([from, to]) => from !== to);
  checkRenames(prevMap, nextMap, Object.fromEntries(activeRenames));

  const renamedTo = new Map(activeRenames);
  const renameTargets = new Set(renamedTo.values());
  // Where each surviving column of prev ends up in next.
  const survivors = new Map<string, string>();
  for (const [name] of prevEntries) {
    const target = renamedTo.get(name) ?? (nextMap.has(name) && !renameTargets.has(name) ? name : undefined);
    if (target !== undefined) survivors.set(name, target);
  }

  const steps: SchemaStep[] = [];
  const preconditions: SchemaPrecondition[] = [];
  const require = (
    check: PreconditionCheck,
    column: string,
    message: string,
    extra: Partial<SchemaPrecondition> = {},
  ) => preconditions.push({ step: steps.length - 1, check, column, message, ...extra });

  for (const [name, definition] of prevEntries) {
    if (!survivors.has(name)) steps.push({ kind: 'dropColumn', column: name, definition });
  }
  const live = new Set([...survivors.keys()]);
  for (const [from, to] of orderRenames(activeRenames, live)) steps.push({ kind: 'renameColumn', column: from, to });

  const changed = [...survivors].flatMap(([oldName, name]) => {
    const before = prevMap.get(oldName);
    const after = nextMap.get(name);
    return before && after ? [{ name, before, after, retype: before.type !== after.type }] : [];
  });
  for (const { name, before, after, retype } of changed) {
    if (before.unique && (!after.unique || retype)) {
      steps.push({ kind: 'dropUnique', column: name, transient: after.unique });
    }
    if (before.required && !after.required) steps.push({ kind: 'dropRequired', column: name });
    if (before.indexed && !after.indexed) steps.push({ kind: 'dropIndex', column: name });
    if (before.search && (!after.search || retype)) steps.push({ kind: 'dropSearch', column: name });
  }
  for (const { name, before, after, retype } of changed) {
    if (!retype) continue;
    const conversion = columnTypes[after.type].canConvertFrom(before.type);
    steps.push({ kind: 'retypeColumn', column: name, from: before.type, to: after.type, conversion });
    if (conversion !== 'always') {
      require('valuesConvert', name, `Column "${name}" cannot be changed from ${before.type} to ${after.type}: {count} {rows} {have} a value that cannot be converted.`, {
        from: before.type,
        to: after.type,
      });
    }
  }
  const claimed = new Set(survivors.values());
  for (const [name, definition] of nextEntries) {
    if (claimed.has(name)) continue;
    // A column kept from before these names were reserved stays; a new one may not take such a name.
    if (isEngineColumnName(name)) throw new SchemaChangeError(engineColumnMessage(name), name);
    steps.push({ kind: 'addColumn', column: name, definition });
    if (definition.required && (definition.default === undefined || definition.default === null)) {
      require('tableEmpty', name, `Column "${name}" cannot be added as required: the table already has {count} {rows} and the new column has no value for them.`);
    }
  }
  for (const { name, before, after, retype } of changed) {
    if (after.required && !before.required) {
      steps.push({ kind: 'setRequired', column: name });
      require('noNulls', name, `Column "${name}" cannot be made required: {count} {rows} {have} no value.`);
    }
    if (after.unique && (!before.unique || retype)) {
      steps.push({ kind: 'addUnique', column: name, transient: before.unique });
      require('noDuplicates', name, `Column "${name}" cannot be made unique: {count} {rows} {have} a value that another row also has.`);
    }
    if (after.indexed && !before.indexed) steps.push({ kind: 'addIndex', column: name });
    if (after.search && (!before.search || retype)) steps.push({ kind: 'addSearch', column: name });
    // A reference is metadata and an index (the rows' match is checked by the tables service, which knows tables).
    if (!sameReference(before.references, after.references)) {
      steps.push({ kind: 'setReference', column: name, references: after.references ?? null });
    } else if (after.references && before.references?.label !== after.references.label) {
      steps.push({ kind: 'setReferenceLabel', column: name, label: after.references.label });
    }
    if (!sameDefault(before.default, after.default))
      steps.push({ kind: 'setDefault', column: name, value: after.default });
  }
  return { steps, preconditions };
}

/** sameReference tells whether two columns' references are the same (both absent counts). */
export function sameReference(a: ColumnReference | undefined, b: ColumnReference | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.table.toLowerCase() === b.table.toLowerCase() && a.onDelete === b.onDelete;
}

/** sameDefault tells whether two defaults are the same value (both absent counts). */
export function sameDefault(a: ColumnDefault | undefined, b: ColumnDefault | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** applyPlanToSchema applies a plan's steps to a schema, purely: what the table's schema becomes. */
export function applyPlanToSchema(prev: TableSchema, plan: SchemaChangePlan): TableSchema {
  const entries: Entry[] = Object.entries(prev).map(([name, definition]) => [name, { ...definition }]);
  const find = (column: string): Entry => {
    const entry = entries.find(([name]) => name === column);
    if (!entry) throw new SchemaChangeError(`Column "${column}" does not exist`, column);
    return entry;
  };
  for (const step of plan.steps) {
    switch (step.kind) {
      case 'dropColumn':
        entries.splice(entries.indexOf(find(step.column)), 1);
        break;
      case 'renameColumn':
        find(step.column)[0] = step.to;
        break;
      case 'addColumn':
        entries.push([step.column, { ...step.definition }]);
        break;
      case 'retypeColumn':
        find(step.column)[1].type = step.to;
        break;
      case 'setRequired':
      case 'dropRequired':
        find(step.column)[1].required = step.kind === 'setRequired';
        break;
      case 'addUnique':
      case 'dropUnique':
        find(step.column)[1].unique = step.kind === 'addUnique';
        break;
      case 'addIndex':
      case 'dropIndex':
        find(step.column)[1].indexed = step.kind === 'addIndex';
        break;
      case 'addSearch':
        find(step.column)[1].search = true;
        break;
      case 'dropSearch':
        delete find(step.column)[1].search;
        break;
      case 'setDefault': {
        const definition = find(step.column)[1];
        if (step.value === undefined || step.value === null) delete definition.default;
        else definition.default = step.value;
        break;
      }
      case 'setReference': {
        const definition = find(step.column)[1];
        if (step.references) definition.references = { ...step.references };
        else delete definition.references;
        break;
      }
      case 'setReferenceLabel': {
        const definition = find(step.column)[1];
        if (!definition.references) break;
        const { label: _old, ...reference } = definition.references;
        definition.references = step.label === undefined ? reference : { ...reference, label: step.label };
        break;
      }
    }
  }
  return Object.fromEntries(entries);
}
