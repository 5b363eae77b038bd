import type { TableResponse, UpdateTableInput } from '@basalt/shared';
import { useEffect, useState } from 'react';
import { useSchemaPreviewQuery } from './tables.queries';

// How long the draft must stay still before the server is asked about it.
const CHECK_DELAY_MS = 400;

function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * useSchemaCheck asks the server whether the table's rows allow a schema change (POST …/schema/preview, which
 * changes nothing), once the draft has been still for a moment. Idle when the change has no schema part.
 */
export function useSchemaCheck(table: TableResponse, change: UpdateTableInput | null) {
  const request = change?.schema ? { schema: change.schema, renames: change.renames ?? {} } : null;
  // Debounce on the request's text: the object itself is new on every render.
  const key = request === null ? null : JSON.stringify(request);
  const settledKey = useDebounced(key, CHECK_DELAY_MS);
  const ready = request !== null && settledKey === key;
  const query = useSchemaPreviewQuery(table, ready ? request : null, settledKey);
  return { ...query, isChecking: request !== null && (!ready || query.isFetching), isIdle: request === null };
}
