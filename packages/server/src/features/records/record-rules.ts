import { type AccessOperation, DEFAULT_TABLE_ACCESS } from '@basalt/shared';
import type { Condition } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { RecordInput, RecordRow } from './record-values.js';

// Table access rules (issue "Apps with their own users"), enforced in the SQL of every record read and write: an
// app's callers (its anon key, its end users) meet, per operation, the rows a rule lets them see. The owner
// account (console, API keys), project members and the app's service key are not limited by them.
//
//   nobody         no row (reads are empty, inserts refused)
//   authenticated  every row, for a signed-in end user; none signed out
//   public         every row, signed in or not
//   own            rows whose owner column holds the end user's id; none signed out
//
// What a hidden row looks like is what PostgreSQL's row-level security shows: reads and counts leave it out,
// updates and deletes do not touch it (0 rows, never an error), and an insert (or an upsert, or a returned row)
// the rules refuse is 42501 "new row violates row-level security policy for table …" (401 signed out, 403 signed
// in), as PostgREST answers. As in PostgreSQL, an UPDATE or DELETE also needs the select rule: its WHERE reads.

/** RowRule is what a rule leaves an actor for one operation on one table. */
export type RowRule = { kind: 'all' } | { kind: 'none' } | { kind: 'own'; column: string; userId: string };

const ALL: RowRule = { kind: 'all' };
const NONE: RowRule = { kind: 'none' };

/** rowRuleOf is the rule of `operation` for the actor on the table. */
export function rowRuleOf(actor: Actor, table: TableDefinition, operation: AccessOperation): RowRule {
  const app = actor.app;
  if (!app || app.role === 'service_role') return ALL;
  const access = table.access ?? DEFAULT_TABLE_ACCESS;
  switch (access[operation]) {
    case 'public':
      return ALL;
    case 'authenticated':
      return actor.endUser ? ALL : NONE;
    case 'own':
      return actor.endUser && access.ownerColumn
        ? { kind: 'own', column: access.ownerColumn, userId: actor.endUser.id }
        : NONE;
    default:
      return NONE;
  }
}

/** isLimited tells whether rules apply to the actor at all (an app's anon key or end user). */
export function isLimited(actor: Actor): boolean {
  return actor.app !== undefined && actor.app.role !== 'service_role';
}

const NOTHING: Condition = { kind: 'or', conditions: [] };

/** ruleCondition is a rule as a condition of the statement: none for `all`, `1 = 0` for `none`. */
export function ruleCondition(rule: RowRule): Condition | undefined {
  switch (rule.kind) {
    case 'all':
      return undefined;
    case 'none':
      return NOTHING;
    case 'own':
      return { kind: 'compare', column: rule.column, op: 'eq', value: rule.userId };
  }
}

/** withRules ANDs the conditions of some rules to a (checked) condition. */
export function withRules(where: Condition | undefined, ...rules: RowRule[]): Condition | undefined {
  const conditions = rules.map(ruleCondition).filter((c): c is Condition => c !== undefined);
  if (conditions.length === 0) return where;
  const all = where ? [where, ...conditions] : conditions;
  return all.length === 1 ? all[0] : { kind: 'and', conditions: all };
}

/** admits tells whether a row passes a rule. */
export function admits(rule: RowRule, row: RecordRow | RecordInput): boolean {
  if (rule.kind === 'all') return true;
  if (rule.kind === 'none') return false;
  return row[rule.column] === rule.userId;
}

/** rlsViolation is PostgREST's answer to a row the rules refuse: 42501, 401 signed out, 403 signed in. */
export function rlsViolation(actor: Actor, table: TableDefinition): ApiError {
  return new ApiError(
    actor.endUser ? 403 : 401,
    '42501',
    `new row violates row-level security policy for table "${table.name}"`,
  );
}

/**
 * ownedInputs applies the insert rule to rows about to be inserted: refused unless the rule admits some row;
 * under `own rows` each row gets the end user's id in the owner column, and a row that names another owner is
 * refused (42501).
 */
export function ownedInputs(actor: Actor, table: TableDefinition, inputs: unknown[]): unknown[] {
  const rule = rowRuleOf(actor, table, 'insert');
  if (rule.kind === 'all') return inputs;
  if (rule.kind === 'none') throw rlsViolation(actor, table);
  return inputs.map((input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const row = input as RecordInput;
    const sent = row[rule.column];
    if (Object.hasOwn(row, rule.column) && sent !== null && sent !== rule.userId) throw rlsViolation(actor, table);
    return { ...row, [rule.column]: rule.userId };
  });
}

/** checkOwnedPatch refuses an update that would give rows to another owner under `own rows` (42501). */
export function checkOwnedPatch(actor: Actor, table: TableDefinition, patch: RecordInput): void {
  const rule = rowRuleOf(actor, table, 'update');
  if (rule.kind !== 'own' || !Object.hasOwn(patch, rule.column)) return;
  if (patch[rule.column] !== rule.userId) throw rlsViolation(actor, table);
}

/** assertVisible refuses rows the select rule hides (a write's returned representation), 42501. */
export function assertVisible(actor: Actor, table: TableDefinition, rows: RecordRow[]): void {
  const rule = rowRuleOf(actor, table, 'select');
  if (rows.some((row) => !admits(rule, row))) throw rlsViolation(actor, table);
}
