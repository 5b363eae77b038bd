import type { ColumnType, Generated } from 'kysely';

// Billing: metered usage and its batches, invoices, Stripe events, notifications.
// Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that stores read the same values from
// SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

/** UserUsageTable counts each account's metered API calls per UTC day, and its storage that day (features/billing). */
export interface UserUsageTable {
  account_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** bigint: PostgreSQL answers it as a string. */
  api_calls: number | string;
  /** The day's highest storage measurement in bytes; null: not measured that day. bigint as api_calls. */
  storage_bytes: ColumnType<number | string | null, number | null | undefined, number | null>;
  last_updated: string;
}

/** UsageBatchesTable holds the ids of metering batches already added, so that a retried one is not added twice. */
export interface UsageBatchesTable {
  id: string;
  created_at: string;
}

/** InvoicesTable holds an account's Stripe invoices; amount in cents. */
export interface InvoicesTable {
  id: Generated<number>;
  account_id: string;
  stripe_invoice_id: string;
  amount: number | string;
  currency: string;
  status: string;
  pdf_url: string | null;
  invoice_date: string;
  /** `created` (Unix seconds) of the newest Stripe event applied to it. */
  event_at: number | string;
  created_at: string;
}

/** StripeEventsTable holds the ids of Stripe webhook events already handled (a replay changes nothing). */
export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: string;
}

/** NotificationsTable holds messages to an account (usage warnings); dedupe_key makes each one appear once. */
export interface NotificationsTable {
  id: Generated<number>;
  account_id: string;
  dedupe_key: string;
  title: string;
  message: string;
  read_at: string | null;
  created_at: string;
}
