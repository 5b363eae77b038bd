// The API-key queries' keys. Imports nothing.

/** keyKeys are the API-key queries. */
export const keyKeys = {
  list: ['/api/keys'] as const,
};
