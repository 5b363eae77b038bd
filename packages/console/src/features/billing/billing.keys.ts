// The query keys of billing and notifications (STYLE.md: key files import nothing). The first element is the API path.

/** billingKeys name every billing query. */
export const billingKeys = {
  usage: ['/api/billing/usage'] as const,
  history: ['/api/billing/usage/history'] as const,
  subscription: ['/api/billing/subscription'] as const,
  invoices: ['/api/billing/invoices'] as const,
  plans: ['/api/billing/plans'] as const,
  accounts: ['/api/billing/accounts'] as const,
  accountsPage: (params: { page: number; limit: number }) => ['/api/billing/accounts', params] as const,
  notifications: ['/api/user/notifications'] as const,
};
