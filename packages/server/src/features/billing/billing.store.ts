import type { Db } from '../../db/database.js';
import { userSearchCondition } from '../../lib/search/user-search.js';

// The SQL of subscriptions (the accounts' subscription fields), invoices and handled Stripe events.

/** BillingRow is an account's subscription fields. */
export interface BillingRow {
  id: string;
  email: string;
  username: string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string | null;
  subscription_plan: string | null;
  subscription_renewal_date: string | null;
  subscription_period_start: string | null;
  cancel_at_period_end: number | null;
  subscription_event_at: number | string | null;
  /** 1 for an administrator of the instance, whom no cap holds back. */
  is_admin: number;
}

const BILLING_COLUMNS = [
  'id',
  'email',
  'username',
  'stripe_customer_id',
  'stripe_subscription_id',
  'subscription_status',
  'subscription_plan',
  'subscription_renewal_date',
  'subscription_period_start',
  'cancel_at_period_end',
  'subscription_event_at',
  'is_admin',
] as const;

/** findBillingRow reads an account's subscription fields, or undefined when there is no such account. */
export function findBillingRow(db: Db, accountId: string): Promise<BillingRow | undefined> {
  return db.kysely.selectFrom('accounts').select(BILLING_COLUMNS).where('id', '=', accountId).executeTakeFirst();
}

/**
 * lockBillingRow holds an account's row until the open transaction ends, so that two checks of one of its caps
 * cannot both pass before either has written (a no-op update locks the row on every engine).
 */
export async function lockBillingRow(db: Db, accountId: string): Promise<void> {
  await db.kysely
    .updateTable('accounts')
    .set((eb) => ({ subscription_plan: eb.ref('subscription_plan') }))
    .where('id', '=', accountId)
    .execute();
}

/** findAccountIdByCustomer names the account of a Stripe customer. */
export async function findAccountIdByCustomer(db: Db, customerId: string): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom('accounts')
    .select('id')
    .where('stripe_customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.id;
}

/**
 * listBillingRowsPage reads a page of the accounts' subscription fields, oldest account first, those whose email
 * or username contains `search` when given (the administrator's view).
 */
export function listBillingRowsPage(
  db: Db,
  page: { limit: number; offset: number; search: string | null },
): Promise<BillingRow[]> {
  const { search } = page;
  return db.kysely
    .selectFrom('accounts')
    .select(BILLING_COLUMNS)
    .where('is_anonymous', '=', 0)
    .$if(Boolean(search), (q) => q.where((eb) => userSearchCondition(eb, 'accounts', search ?? '')))
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** countBillingRows counts the accounts of the administrator's view, matching `search` when given. */
export async function countBillingRows(db: Db, search: string | null): Promise<number> {
  const row = await db.kysely
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('is_anonymous', '=', 0)
    .$if(Boolean(search), (q) => q.where((eb) => userSearchCondition(eb, 'accounts', search ?? '')))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** SubscriptionFields are the subscription columns a change sets. */
export type SubscriptionFields = Partial<Omit<BillingRow, 'id' | 'email' | 'username'>>;

/** updateSubscriptionFields sets some of an account's subscription fields. */
export async function updateSubscriptionFields(db: Db, accountId: string, fields: SubscriptionFields): Promise<void> {
  await db.kysely
    .updateTable('accounts')
    .set({ ...fields, updated_at: new Date().toISOString() })
    .where('id', '=', accountId)
    .execute();
}

/** claimStripeEvent records an event id as handled; false when it was handled before (a replay). */
export async function claimStripeEvent(db: Db, id: string, type: string): Promise<boolean> {
  const result = await db.kysely
    .insertInto('stripe_events')
    .values({ id, type, processed_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** InvoiceFacts are what a Stripe invoice event says about one invoice. */
export interface InvoiceFacts {
  accountId: string;
  stripeInvoiceId: string;
  amount: number;
  currency: string;
  status: string;
  pdfUrl: string | null;
  invoiceDate: string;
  /** The event's `created` (Unix seconds): an older event than the one stored changes nothing. */
  eventAt: number;
}

/** upsertInvoice stores an invoice, or updates it when the event is not older than the one it was stored from. */
export async function upsertInvoice(db: Db, facts: InvoiceFacts): Promise<void> {
  await db.kysely
    .insertInto('invoices')
    .values({
      account_id: facts.accountId,
      stripe_invoice_id: facts.stripeInvoiceId,
      amount: facts.amount,
      currency: facts.currency,
      status: facts.status,
      pdf_url: facts.pdfUrl,
      invoice_date: facts.invoiceDate,
      event_at: facts.eventAt,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) =>
      oc
        .column('stripe_invoice_id')
        .doUpdateSet((eb) => ({
          amount: eb.ref('excluded.amount'),
          status: eb.ref('excluded.status'),
          pdf_url: eb.ref('excluded.pdf_url'),
          event_at: eb.ref('excluded.event_at'),
        }))
        .where((eb) => eb('invoices.event_at', '<=', eb.ref('excluded.event_at'))),
    )
    .execute();
}

/** listInvoiceRows reads an account's invoices, newest first. */
export function listInvoiceRows(db: Db, accountId: string, limit: number) {
  return db.kysely
    .selectFrom('invoices')
    .select(['stripe_invoice_id', 'amount', 'status', 'pdf_url', 'invoice_date'])
    .where('account_id', '=', accountId)
    .orderBy('invoice_date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
