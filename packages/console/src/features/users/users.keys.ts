// Query keys of the Users page (first element: the API path, second: the query string). No imports, so any
// feature may name them to refresh these lists.

/** UserListParams are the Users page's server-side search and paging. */
export interface UserListParams {
  page: number;
  limit: number;
  search?: string | undefined;
}

/** userKeys are the end-user queries of the caller's app. */
export const userKeys = {
  all: ['/api/users'] as const,
  list: (params: UserListParams) => ['/api/users', params] as const,
};

/** consoleAccountKeys are the administrator's console-account queries. */
export const consoleAccountKeys = {
  all: ['/api/admin/accounts'] as const,
  list: (params: UserListParams) => ['/api/admin/accounts', params] as const,
};
