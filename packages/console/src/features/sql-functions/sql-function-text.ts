import type { SqlFunction } from '@basalt/shared';

// A SQL function's definition in words, as the SQL Functions page and the function's history show it.

/** paramsText is a function's parameter list: "min number, by number = 1" (empty when it takes none). */
export function paramsText(params: SqlFunction['params']): string {
  return params
    .map((p) => `${p.name} ${p.type}${p.default === undefined ? '' : ` = ${JSON.stringify(p.default)}`}`)
    .join(', ');
}

/** returnsText is what a function returns: "number", "notes", "setof (id, title)". */
export function returnsText({ kind, type, table, columns }: SqlFunction['returns']): string {
  const row = table ?? `(${(columns ?? []).map((c) => c.name).join(', ')})`;
  return kind === 'scalar' ? (type ?? '') : kind === 'row' ? row : `setof ${row}`;
}

/** signatureOf is a function's signature: "starred(min number) → setof notes". */
export const signatureOf = (fn: Pick<SqlFunction, 'name' | 'params' | 'returns'>) =>
  `${fn.name}(${paramsText(fn.params)}) → ${returnsText(fn.returns)}`;
