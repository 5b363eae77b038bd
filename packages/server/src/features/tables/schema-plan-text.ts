import type { ColumnDefinition } from '@basalt/shared';
import type { SchemaChangePlan, SchemaStep } from './schema-plan.js';

// A planned schema change in words, as the console's diff preview and a design's plan show it.

function describeDefinition(definition: ColumnDefinition): string {
  const ref = definition.references;
  return [
    definition.type,
    definition.required ? 'required' : '',
    definition.unique ? 'unique' : '',
    definition.indexed ? 'indexed' : '',
    definition.search ? 'searchable' : '',
    ref ? `references ${ref.table} on delete ${ref.onDelete}${ref.label ? `, shown by ${ref.label}` : ''}` : '',
    definition.default === undefined || definition.default === null
      ? ''
      : `default ${JSON.stringify(definition.default)}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * describePlan renders a plan as lines a person reads (the console's diff preview); the unique index that
 * a retype drops and re-adds is not shown. An empty list means nothing changes.
 */
export function describePlan(plan: SchemaChangePlan): string[] {
  return plan.steps.flatMap((step) => {
    const line = describeStep(step);
    return line === null ? [] : [line];
  });
}

function describeStep(step: SchemaStep): string | null {
  switch (step.kind) {
    case 'dropColumn':
      return `Drop column "${step.column}" (${describeDefinition(step.definition)}) and its data`;
    case 'renameColumn':
      return `Rename column "${step.column}" to "${step.to}"`;
    case 'dropUnique':
      return step.transient ? null : `Allow duplicate values in "${step.column}"`;
    case 'dropRequired':
      return `Make "${step.column}" optional`;
    case 'retypeColumn': {
      const check = step.conversion === 'always' ? '' : ' (every existing value must convert)';
      return `Change "${step.column}" from ${step.from} to ${step.to}${check}`;
    }
    case 'addColumn':
      return `Add column "${step.column}" (${describeDefinition(step.definition)})`;
    case 'setRequired':
      return `Make "${step.column}" required`;
    case 'addUnique':
      return step.transient ? null : `Make "${step.column}" unique`;
    case 'addIndex':
      return `Add an index on "${step.column}"`;
    case 'dropIndex':
      return `Drop the index on "${step.column}"`;
    case 'addSearch':
      return `Make "${step.column}" searchable (a full-text index)`;
    case 'dropSearch':
      return `Drop the full-text index of "${step.column}"`;
    case 'setDefault':
      return step.value === undefined || step.value === null
        ? `Remove the default of "${step.column}"`
        : `Set the default of "${step.column}" to ${JSON.stringify(step.value)}`;
    case 'setReference':
      return step.references
        ? `Make "${step.column}" reference ${step.references.table} (on delete ${step.references.onDelete})`
        : `Remove the reference of "${step.column}"`;
    case 'setReferenceLabel':
      return step.label === undefined
        ? `Show the rows "${step.column}" references by their first text column`
        : `Show the rows "${step.column}" references by "${step.label}"`;
    default:
      return null;
  }
}
