import { z } from 'zod';

/** appUserSchema is the console's application user, as /api/auth/me returns it. */
export const appUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  stripeCustomerId: z.string().nullable(),
  stripeSubscriptionId: z.string().nullable(),
  subscriptionStatus: z.string().nullable(),
  subscriptionPlan: z.string().nullable(),
  subscriptionRenewalDate: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean().nullable(),
  createdAt: z.string(),
});
export type AppUser = z.infer<typeof appUserSchema>;

/** paginationSchema is the paging object of the console's list endpoints. */
export const paginationSchema = z.object({
  totalItems: z.number(),
  totalPages: z.number(),
  currentPage: z.number(),
  hasNext: z.boolean(),
  hasPrevious: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** activityEntrySchema is one entry of the activity log. */
export const activityEntrySchema = z.object({
  id: z.number(),
  action: z.string(),
  resource: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** consoleConfigSchema is what GET /api/config tells the console. */
export const consoleConfigSchema = z.object({
  siteName: z.string(),
  anonKey: z.string(),
  databaseType: z.enum(['sqlite', 'postgres']),
  mailConfigured: z.boolean(),
  version: z.string(),
  /** People may create console accounts themselves (an administrator may close sign-ups). */
  signupsAllowed: z.boolean(),
  /** Where the instance's terms are published; null: none, and registration asks to accept nothing. */
  termsUrl: z.string().nullable(),
  /**
   * The server's public URL when SITE_URL is set; null: unset, and the console shows the address it was opened at
   * (one answer for every page that shows where apps reach the API: localhost and 127.0.0.1 are not mixed).
   */
  siteUrl: z.string().nullable().default(null),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

/** ApiErrorBody is the error body of the console API family. */
export interface ApiErrorBody {
  message: string;
  code?: string;
  validationErrors?: Record<string, string[]>;
}
