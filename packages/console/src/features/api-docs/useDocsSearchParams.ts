import type { TableResponse } from '@basalt/shared';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

// The docs pages keep their tab (?tab=) and chosen table (?table=) in the address, so a link or a reload
// opens the same view; the default tab is left out of the address.

/** useDocsSearchParams reads and sets a docs page's tab (one of `tabs`) and chosen table name. */
export function useDocsSearchParams<T extends string>(tabs: readonly { value: T }[], defaultTab: T) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = tabs.find((t) => t.value === requested)?.value ?? defaultTab;
  const update = useCallback(
    (key: 'tab' | 'table', value: string | null) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (value === null) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return {
    tab,
    setTab: (value: string) => update('tab', value === defaultTab ? null : value),
    tableName: params.get('table'),
    setTableName: (name: string) => update('table', name),
  };
}

/** chooseTable is the table of that name, else the first one. */
export function chooseTable(tables: readonly TableResponse[], name: string | null): TableResponse | undefined {
  return tables.find((t) => t.name === name) ?? tables[0];
}
