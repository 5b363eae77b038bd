import { COLUMN_TYPES, type ColumnDefinition, type ColumnType, type TableSchema } from '@basalt/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPlanToSchema,
  planSchemaChange,
  refusalMessage,
  SchemaChangeError,
  schemaChangeRefused,
} from './schema-plan.js';
import { describePlan } from './schema-plan-text.js';

const col = (type: ColumnType, flags: Partial<Omit<ColumnDefinition, 'type'>> = {}): ColumnDefinition => ({
  type,
  required: flags.required ?? false,
  unique: flags.unique ?? false,
});
const ID = col('number', { required: true, unique: true });

describe('planSchemaChange', () => {
  it('plans nothing for an unchanged schema', () => {
    const schema = { id: ID, title: col('text', { required: true }), qty: col('number') };
    expect(planSchemaChange(schema, { ...schema })).toEqual({ steps: [], preconditions: [] });
  });

  it('adds an optional column without preconditions', () => {
    const plan = planSchemaChange({ title: col('text') }, { title: col('text'), qty: col('number', { unique: true }) });
    expect(plan.steps).toEqual([{ kind: 'addColumn', column: 'qty', definition: col('number', { unique: true }) }]);
    expect(plan.preconditions).toEqual([]);
  });

  it('adds a required column only to an empty table', () => {
    const plan = planSchemaChange(
      { title: col('text') },
      { title: col('text'), qty: col('number', { required: true }) },
    );
    expect(plan.preconditions).toEqual([
      {
        step: 0,
        check: 'tableEmpty',
        column: 'qty',
        message:
          'Column "qty" cannot be added as required: the table already has {count} {rows} and the new column has no value for them.',
      },
    ]);
    const [precondition] = plan.preconditions;
    if (!precondition) throw new Error('no precondition');
    expect(refusalMessage(precondition, 3)).toBe(
      'Column "qty" cannot be added as required: the table already has 3 rows and the new column has no value for them.',
    );
  });

  it('drops a column that the new schema lacks', () => {
    const plan = planSchemaChange({ title: col('text'), qty: col('number') }, { title: col('text') });
    expect(plan.steps).toEqual([{ kind: 'dropColumn', column: 'qty', definition: col('number') }]);
  });

  it('makes a column required after checking for NULLs, with the message of the brief', () => {
    const plan = planSchemaChange({ qty: col('number') }, { qty: col('number', { required: true }) });
    expect(plan.steps).toEqual([{ kind: 'setRequired', column: 'qty' }]);
    const [precondition] = plan.preconditions;
    if (!precondition) throw new Error('no precondition');
    expect(precondition).toMatchObject({ step: 0, check: 'noNulls', column: 'qty' });
    expect(refusalMessage(precondition, 3)).toBe('Column "qty" cannot be made required: 3 rows have no value.');
    expect(refusalMessage(precondition, 1)).toBe('Column "qty" cannot be made required: 1 row has no value.');
    const refused = schemaChangeRefused(precondition, 2);
    expect(refused).toBeInstanceOf(SchemaChangeError);
    expect(refused.status).toBe(409);
    expect(refused.message).toBe('Column "qty" cannot be made required: 2 rows have no value.');
  });

  it('makes a column unique after checking for duplicates, and relaxes flags without checks', () => {
    const plan = planSchemaChange(
      { a: col('text'), b: col('text', { required: true, unique: true }) },
      { a: col('text', { unique: true }), b: col('text') },
    );
    expect(plan.steps).toEqual([
      { kind: 'dropUnique', column: 'b', transient: false },
      { kind: 'dropRequired', column: 'b' },
      { kind: 'addUnique', column: 'a', transient: false },
    ]);
    expect(plan.preconditions).toEqual([
      {
        step: 2,
        check: 'noDuplicates',
        column: 'a',
        message: 'Column "a" cannot be made unique: {count} {rows} {have} a value that another row also has.',
      },
    ]);
  });

  it.each<[ColumnType, ColumnType, 'always' | 'check' | 'never']>([
    ['number', 'text', 'always'],
    ['text', 'number', 'check'],
    ['text', 'json', 'always'],
    ['json', 'array', 'check'],
    ['date', 'number', 'never'],
  ])('retypes %s to %s (%s)', (from, to, conversion) => {
    const plan = planSchemaChange({ v: col(from) }, { v: col(to) });
    expect(plan.steps).toEqual([{ kind: 'retypeColumn', column: 'v', from, to, conversion }]);
    if (conversion === 'always') {
      expect(plan.preconditions).toEqual([]);
    } else {
      expect(plan.preconditions).toEqual([
        {
          step: 0,
          check: 'valuesConvert',
          column: 'v',
          from,
          to,
          message: `Column "v" cannot be changed from ${from} to ${to}: {count} {rows} {have} a value that cannot be converted.`,
        },
      ]);
    }
  });

  it('re-adds the unique index of a retyped column and checks it again', () => {
    const plan = planSchemaChange({ code: col('text', { unique: true }) }, { code: col('number', { unique: true }) });
    expect(plan.steps.map((s) => s.kind)).toEqual(['dropUnique', 'retypeColumn', 'addUnique']);
    expect(plan.preconditions.map((p) => [p.step, p.check])).toEqual([
      [1, 'valuesConvert'],
      [2, 'noDuplicates'],
    ]);
    expect(describePlan(plan)).toEqual(['Change "code" from text to number (every existing value must convert)']);
  });

  it('renames explicitly, and later steps use the new name', () => {
    const plan = planSchemaChange(
      { qty: col('text') },
      { amount: col('number', { required: true }) },
      { qty: 'amount' },
    );
    expect(plan.steps).toEqual([
      { kind: 'renameColumn', column: 'qty', to: 'amount' },
      { kind: 'retypeColumn', column: 'amount', from: 'text', to: 'number', conversion: 'check' },
      { kind: 'setRequired', column: 'amount' },
    ]);
    expect(plan.preconditions.map((p) => [p.step, p.check, p.column])).toEqual([
      [1, 'valuesConvert', 'amount'],
      [2, 'noNulls', 'amount'],
    ]);
  });

  it('never guesses a rename: a dropped and an added column stay a drop and an add', () => {
    const plan = planSchemaChange({ qty: col('number') }, { amount: col('number') });
    expect(plan.steps.map((s) => s.kind)).toEqual(['dropColumn', 'addColumn']);
  });

  it('orders chained renames and lets a new column take a freed name', () => {
    const prev = { a: col('text'), b: col('number') };
    const next = { b: col('text'), c: col('number'), a: col('boolean') };
    const plan = planSchemaChange(prev, next, { a: 'b', b: 'c' });
    expect(plan.steps).toEqual([
      { kind: 'renameColumn', column: 'b', to: 'c' },
      { kind: 'renameColumn', column: 'a', to: 'b' },
      { kind: 'addColumn', column: 'a', definition: col('boolean') },
    ]);
    expect(applyPlanToSchema(prev, plan)).toEqual(next);
  });

  it('drops a column whose name a rename takes over', () => {
    const plan = planSchemaChange({ a: col('text'), b: col('number') }, { b: col('text') }, { a: 'b' });
    expect(plan.steps).toEqual([
      { kind: 'dropColumn', column: 'b', definition: col('number') },
      { kind: 'renameColumn', column: 'a', to: 'b' },
    ]);
  });

  it('renames a column to another case of its name, or drops and adds without a rename', () => {
    expect(planSchemaChange({ qty: col('number') }, { Qty: col('number') }, { qty: 'Qty' }).steps).toEqual([
      { kind: 'renameColumn', column: 'qty', to: 'Qty' },
    ]);
    expect(planSchemaChange({ qty: col('number') }, { Qty: col('number') }).steps.map((s) => s.kind)).toEqual([
      'dropColumn',
      'addColumn',
    ]);
  });

  it('ignores identity renames', () => {
    expect(planSchemaChange({ a: col('text') }, { a: col('text') }, { a: 'a' }).steps).toEqual([]);
  });

  it.each<[string, TableSchema, TableSchema, Record<string, string>, string]>([
    [
      'a swap',
      { a: col('text'), b: col('text') },
      { a: col('text'), b: col('text') },
      { a: 'b', b: 'a' },
      'Columns cannot swap names in one change ("a" → "b", "b" → "a"); rename them in two changes',
    ],
    [
      'an unknown column',
      { a: col('text') },
      { b: col('text') },
      { x: 'b' },
      'Column "x" cannot be renamed: the table has no such column',
    ],
    [
      'a missing target',
      { a: col('text') },
      { b: col('text') },
      { a: 'c' },
      'Column "a" is renamed to "c", but the new schema has no column "c"',
    ],
    [
      'two renames to one name',
      { a: col('text'), b: col('text') },
      { c: col('text') },
      { a: 'c', b: 'c' },
      'Two columns cannot both be renamed to "c"',
    ],
    [
      'renaming id',
      { a: col('text') },
      { a: col('text') },
      { id: 'a' },
      '"id" is a system column (number, required, unique) and cannot be defined or changed',
    ],
    [
      'renaming to created_at',
      { a: col('text') },
      { a: col('text') },
      { a: 'created_at' },
      '"created_at" is a system column (date, required) and cannot be defined or changed',
    ],
    [
      'changing id',
      { id: ID },
      { id: col('text') },
      {},
      '"id" is a system column (number, required, unique) and cannot be defined or changed',
    ],
    [
      'adding updated_at',
      {},
      { updated_at: col('date') },
      {},
      '"updated_at" is a system column (date, required) and cannot be defined or changed',
    ],
    [
      'a bad name',
      { a: col('text') },
      { 'a"; drop table x;--': col('text') },
      {},
      'Column name must start with a letter and contain only letters, numbers and underscores: "a"; drop table x;--"',
    ],
    [
      'names equal ignoring case',
      {},
      { qty: col('text'), QTY: col('text') },
      {},
      'Column names must be unique: "QTY" is used twice (names ignore case)',
    ],
    [
      "adding a PostgreSQL system column's name",
      { a: col('text') },
      { a: col('text'), xmin: col('number') },
      {},
      '"xmin" is reserved by the database engines; choose another column name',
    ],
    [
      "renaming to SQLite's rowid, in capitals",
      { a: col('text') },
      { ROWID: col('text') },
      { a: 'ROWID' },
      '"ROWID" is reserved by the database engines; choose another column name',
    ],
  ])('refuses %s', (_label, prev, next, renames, message) => {
    expect(() => planSchemaChange(prev, next, renames)).toThrow(SchemaChangeError);
    expect(() => planSchemaChange(prev, next, renames)).toThrow(message);
  });

  it('keeps a column named like an engine column before such names were reserved, and renames it away', () => {
    expect(planSchemaChange({ oid: col('text') }, { oid: col('text'), b: col('text') }).steps).toEqual([
      { kind: 'addColumn', column: 'b', definition: col('text') },
    ]);
    expect(planSchemaChange({ oid: col('text') }, { legacy_oid: col('text') }, { oid: 'legacy_oid' }).steps).toEqual([
      { kind: 'renameColumn', column: 'oid', to: 'legacy_oid' },
    ]);
  });

  it('treats system columns as implicit on both sides', () => {
    const withId = { id: ID, a: col('text') };
    expect(planSchemaChange(withId, { a: col('text') }).steps).toEqual([]);
    expect(planSchemaChange({ a: col('text') }, withId).steps).toEqual([]);
    expect(planSchemaChange(withId, { ...withId, created_at: col('date', { required: true }) }).steps).toEqual([]);
  });

  it('plans a 100-column table', () => {
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`c${i}`, col('text')]));
    const plan = planSchemaChange({}, wide);
    expect(plan.steps).toHaveLength(100);
    expect(applyPlanToSchema({}, plan)).toEqual(wide);
  });
});

describe('describePlan', () => {
  it('renders each step as a line', () => {
    const plan = planSchemaChange(
      { a: col('text'), b: col('number', { unique: true }), c: col('text', { required: true }), d: col('date') },
      {
        a2: col('text'),
        b: col('number'),
        c: col('text'),
        d: col('text', { required: true, unique: true }),
        e: col('json', { required: true }),
      },
      { a: 'a2' },
    );
    expect(describePlan(plan)).toEqual([
      'Rename column "a" to "a2"',
      'Allow duplicate values in "b"',
      'Make "c" optional',
      'Change "d" from date to text',
      'Add column "e" (json, required)',
      'Make "d" required',
      'Make "d" unique',
    ]);
    expect(describePlan(planSchemaChange({ x: col('boolean', { unique: true }) }, {}))).toEqual([
      'Drop column "x" (boolean, unique) and its data',
    ]);
    expect(describePlan({ steps: [], preconditions: [] })).toEqual([]);
  });
});

// Property: for any two schemas and any valid renames, applying the plan to prev yields next, and every
// precondition points at a step that touches its column.
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'B'];
const definitionArb = fc.record({
  type: fc.constantFrom(...COLUMN_TYPES),
  required: fc.boolean(),
  unique: fc.boolean(),
});
const schemaArb = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), definitionArb), {
    maxLength: 8,
    selector: ([name]) => name.toLowerCase(),
  })
  .map((entries) => Object.fromEntries(entries) as TableSchema);

const changeArb = fc
  .tuple(schemaArb, schemaArb, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }))
  .map(([prev, next, picks]) => {
    // Renames: distinct prev columns to distinct next columns, without cycles (a cycle is refused by design).
    const prevNames = Object.keys(prev);
    const nextNames = Object.keys(next);
    const renames: Record<string, string> = {};
    const used = new Set<string>();
    for (const [i, j] of picks) {
      if (prevNames.length === 0 || nextNames.length === 0) break;
      const from = prevNames[i % prevNames.length];
      const to = nextNames[j % nextNames.length];
      if (from === undefined || to === undefined || from in renames || used.has(to)) continue;
      renames[from] = to;
      used.add(to);
    }
    return { prev, next, renames };
  });

describe('planSchemaChange properties', () => {
  it('applyPlanToSchema(prev, plan) equals next', () => {
    fc.assert(
      fc.property(changeArb, ({ prev, next, renames }) => {
        let plan: ReturnType<typeof planSchemaChange>;
        try {
          plan = planSchemaChange(prev, next, renames);
        } catch (error) {
          // Only swaps are refused among these inputs.
          expect(error).toBeInstanceOf(SchemaChangeError);
          expect((error as Error).message).toMatch(/^Columns cannot swap names/);
          return;
        }
        expect(applyPlanToSchema(prev, plan)).toEqual(next);
        for (const p of plan.preconditions) {
          const step = plan.steps[p.step];
          expect(step?.column === p.column).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('without renames, planning never fails and the plan reaches next', () => {
    fc.assert(
      fc.property(schemaArb, schemaArb, (prev, next) => {
        expect(applyPlanToSchema(prev, planSchemaChange(prev, next))).toEqual(next);
        expect(planSchemaChange(next, next).steps).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
