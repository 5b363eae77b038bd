// Query keys of the account's app (GET /api/app). No imports, so any feature may name them.

/** appKeys are the app queries. */
export const appKeys = {
  app: ['/api/app'] as const,
};
