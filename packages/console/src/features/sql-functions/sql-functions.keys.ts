// The query keys of SQL functions (STYLE.md: key files import nothing). The first element is the API path.

/** sqlFunctionKeys name every SQL-function query. */
export const sqlFunctionKeys = {
  list: ['/api/functions/sql'] as const,
};
