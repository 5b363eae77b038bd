import { randomUUID } from 'node:crypto';
import type { AccountsTable, AppUsersTable } from '../db/schema/auth-tables.js';

// Rows written straight into the system tables, for the suites that need many of them at once (signing each up
// would hash as many passwords): every column has its plain default, a test names only what it is about.

/** accountRow is a confirmed console account without a password, created at `at`. */
export function accountRow(
  fields: Partial<AccountsTable> & { email: string },
  at = new Date().toISOString(),
): AccountsTable {
  return {
    id: randomUUID(),
    username: null,
    username_key: null,
    password_hash: null,
    is_admin: 0,
    email_confirmed_at: at,
    confirmation_sent_at: null,
    recovery_sent_at: null,
    new_email: null,
    email_change_sent_at: null,
    last_sign_in_at: null,
    banned_until: null,
    user_metadata: '{}',
    app_metadata: '{}',
    marketing_emails: 0,
    stripe_customer_id: null,
    stripe_subscription_id: null,
    subscription_status: null,
    subscription_plan: null,
    subscription_renewal_date: null,
    cancel_at_period_end: null,
    subscription_period_start: null,
    subscription_event_at: null,
    is_anonymous: 0,
    invited_at: null,
    reauthentication_sent_at: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}

/** appUserRow is a confirmed end user of an app, without a password, created at `at`. */
export function appUserRow(
  fields: Partial<AppUsersTable> & { app_id: string; email: string },
  at = new Date().toISOString(),
): AppUsersTable {
  return {
    id: randomUUID(),
    username: null,
    username_key: null,
    password_hash: null,
    email_confirmed_at: at,
    confirmation_sent_at: null,
    recovery_sent_at: null,
    new_email: null,
    email_change_sent_at: null,
    last_sign_in_at: null,
    banned_until: null,
    user_metadata: '{}',
    app_metadata: '{}',
    is_anonymous: 0,
    invited_at: null,
    reauthentication_sent_at: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}
