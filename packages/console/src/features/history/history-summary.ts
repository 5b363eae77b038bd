import type { HistoryChange } from '@basalt/shared';

// One line per change for the Table View and the comparison list.

const CHANGE_LABELS: Record<string, string> = {
  SCHEMA_CREATE: 'Table created',
  SCHEMA_UPDATE: 'Schema changed',
  SCHEMA_DELETE: 'Table deleted',
  RECORD_CREATE: 'Record created',
  RECORD_UPDATE: 'Record updated',
  RECORD_DELETE: 'Record deleted',
  FUNCTION_CREATE: 'SQL function created',
  FUNCTION_UPDATE: 'SQL function changed',
  FUNCTION_DELETE: 'SQL function deleted',
};

/** changeLabel names a change type: "Record updated". */
export function changeLabel(changeType: string): string {
  return CHANGE_LABELS[changeType] ?? changeType;
}

const SYSTEM_FIELDS = new Set(['id', 'created_at', 'updated_at']);

function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : null;
}

function fieldList(names: string[]): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, 4).join(', ');
  return names.length > 4 ? `${shown} and ${names.length - 4} more` : shown;
}

/** summarizeChange describes what a change did: the fields set or changed, or what happened to the table. */
export function summarizeChange(change: HistoryChange): string {
  const before = asObject(change.previousState);
  const after = asObject(change.newState);
  switch (change.changeType) {
    case 'RECORD_CREATE': {
      const fields = Object.keys(after ?? {}).filter((k) => !SYSTEM_FIELDS.has(k) && after?.[k] !== null);
      return fields.length ? `Set ${fieldList(fields)}` : 'Created an empty record';
    }
    case 'RECORD_UPDATE': {
      const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
      const changed = [...keys].filter(
        (k) => !SYSTEM_FIELDS.has(k) && JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after?.[k] ?? null),
      );
      return changed.length ? `Changed ${fieldList(changed)}` : 'No field changed';
    }
    case 'RECORD_DELETE':
      return `Deleted record ${change.recordId ?? ''}`.trim();
    case 'SCHEMA_CREATE': {
      const schema = asObject(after?.schema);
      const count = schema ? Object.keys(schema).length : 0;
      return `Created with ${count} column${count === 1 ? '' : 's'}`;
    }
    case 'SCHEMA_UPDATE': {
      const renamed = before?.name !== after?.name && after?.name ? `Renamed to ${String(after.name)}` : '';
      const ruled =
        before?.access !== undefined && JSON.stringify(before.access) !== JSON.stringify(after?.access)
          ? 'Changed the access rules'
          : '';
      return renamed || ruled || 'Changed the columns or description';
    }
    case 'SCHEMA_DELETE':
      return 'Dropped the table and its records';
    default:
      return '';
  }
}
