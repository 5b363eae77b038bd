// The auth area's query keys; the first element is the API path. Imports nothing.

/** authKeys are the auth queries: `me` is the signed-in account as the server sees it, `settings` what sign-in offers. */
export const authKeys = {
  me: ['/api/auth/me'] as const,
  settings: ['/auth/v1/settings'] as const,
};
