import type { ColumnType, SqlFunction, SqlFunctionInput, SqlFunctionMode, SqlFunctionParam } from '@basalt/shared';

// The SQL function form's values and the definition the API takes, both ways. A parameter's default is typed in a
// text box: empty is no default, otherwise it is read as a value of the parameter's type (a number, true/false, JSON
// for json and array, the text itself for text and dates); the server checks it and names the field when it is wrong.

/** FormParam is a parameter as the form holds it: its default as text while edited. */
export interface FormParam {
  name: string;
  type: ColumnType;
  default?: unknown;
}

/** defaultText is a stored default as the form shows it ('' for none). */
export function defaultText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** defaultValue is the default a form's text means for a parameter type (undefined: none). */
export function defaultValue(type: ColumnType, text: string): unknown {
  if (text.trim() === '') return undefined;
  if (text.trim() === 'null') return null;
  if (type === 'text' || type === 'date' || type === 'date_only') return text;
  if (type === 'number') return Number.isFinite(Number(text)) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** paramsForForm are a function's parameters as the form edits them. */
export function paramsForForm(params: SqlFunction['params']): Array<FormParam & { default: string }> {
  return params.map((p) => ({ name: p.name, type: p.type, default: defaultText(p.default) }));
}

/** paramsForApi are the form's parameters as the API takes them. */
export function paramsForApi(params: FormParam[]): SqlFunctionInput['params'] {
  return params.map((p) => {
    const value = typeof p.default === 'string' ? defaultValue(p.type, p.default) : p.default;
    if (value === undefined) return { name: p.name, type: p.type };
    return { name: p.name, type: p.type, default: value as SqlFunctionParam['default'] };
  });
}

/**
 * statementMode tells from a statement's first word whether it reads or writes, as the server decides it (the form
 * says so while the owner types).
 */
export function statementMode(body: string): SqlFunctionMode {
  const text = body.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const first = /^\s*\(*\s*([A-Za-z]+)/.exec(text)?.[1]?.toLowerCase();
  return first === 'insert' || first === 'update' || first === 'delete' ? 'write' : 'read';
}
