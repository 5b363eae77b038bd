// The query keys of secrets (STYLE.md: key files import nothing). The first element is the API path.

/** secretKeys name every secrets query. */
export const secretKeys = {
  list: ['/api/secrets'] as const,
};
