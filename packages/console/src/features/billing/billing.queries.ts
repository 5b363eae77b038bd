import {
  type BillingAccount,
  billingAccountsPageSchema,
  type CheckoutResult,
  checkoutResultSchema,
  DEFAULT_PLANS,
  invoiceSchema,
  notificationSchema,
  type PlanId,
  plansResponseSchema,
  subscriptionSchema,
  usageDaySchema,
  usageSchema,
} from '@basalt/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage, errorStatus } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { billingKeys } from './billing.keys';

// Billing: GET /api/billing/usage, /subscription, /invoices; POST /api/billing/create-checkout-session {planId}
// and /cancel-subscription; the plans on sale, the usage per day, and the administrator's view of every account.

const FALLBACK = 'Something went wrong. Please try again.';

function useLoadFailureToast(error: Error | null, title: string) {
  useEffect(() => {
    if (error) showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });
  }, [error, title]);
}

/** useUsageQuery reads the account's usage in its current period. */
export function useUsageQuery() {
  const query = useQuery({ queryKey: billingKeys.usage, queryFn: jsonQuery(usageSchema) });
  useLoadFailureToast(query.error, 'Failed to fetch usage data');
  return query;
}

/** useUsageHistoryQuery reads the API calls and compute minutes per day of the period. */
export function useUsageHistoryQuery() {
  return useQuery({ queryKey: billingKeys.history, queryFn: jsonQuery(z.array(usageDaySchema)) });
}

/** useSubscriptionQuery reads the account's plan and subscription. */
export function useSubscriptionQuery() {
  const query = useQuery({ queryKey: billingKeys.subscription, queryFn: jsonQuery(subscriptionSchema) });
  useLoadFailureToast(query.error, 'Failed to fetch subscription data');
  return query;
}

/** useInvoicesQuery lists the account's invoices. */
export function useInvoicesQuery() {
  const query = useQuery({ queryKey: billingKeys.invoices, queryFn: jsonQuery(z.array(invoiceSchema)) });
  useLoadFailureToast(query.error, 'Failed to fetch invoices');
  return query;
}

/** usePlansQuery reads the plans the operator sells (the defaults until it answers). */
export function usePlansQuery() {
  const query = useQuery({ queryKey: billingKeys.plans, queryFn: jsonQuery(plansResponseSchema) });
  return { ...query, plans: query.data?.plans ?? DEFAULT_PLANS };
}

/** useBillingAccountsQuery reads one page of the accounts' plans and usage (administrators only). */
export function useBillingAccountsQuery(params: { page: number; limit: number }) {
  return useQuery({
    queryKey: billingKeys.accountsPage(params),
    queryFn: jsonQuery(billingAccountsPageSchema),
    placeholderData: keepPreviousData,
  });
}

/**
 * useCheckoutMutation asks for a checkout session: a sessionUrl sends the browser to Stripe's page; a
 * clientSecret is handed to the payment dialog.
 */
export function useCheckoutMutation(onClientSecret: (secret: string) => void) {
  return useMutation({
    mutationFn: (planId: PlanId): Promise<CheckoutResult> =>
      apiJson(checkoutResultSchema, 'POST', '/api/billing/create-checkout-session', { planId }),
    retry: false,
    onSuccess: (result) => {
      if (result.sessionUrl) {
        window.location.assign(result.sessionUrl);
      } else if (result.clientSecret) {
        onClientSecret(result.clientSecret);
      } else {
        showToast({ title: 'Could not create payment session. Please try again.', variant: 'destructive' });
      }
    },
    onError: (error) => {
      const message = errorMessage(error, '');
      showToast({
        title: 'Error',
        description: `Failed to create checkout session: ${errorStatus(error) ?? 0}${message ? ` (${message})` : ''}`,
        variant: 'destructive',
      });
    },
  });
}

/** useCancelSubscriptionMutation ends the subscription at the end of its period, then reads it again. */
export function useCancelSubscriptionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/billing/cancel-subscription', {});
    },
    retry: false,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: billingKeys.subscription });
      showToast({
        title: 'Subscription canceled',
        description: 'It ends at the end of the billing period.',
        variant: 'success',
      });
    },
    onError: (error) =>
      showToast({
        title: `Failed to cancel subscription: ${errorMessage(error, FALLBACK)}`,
        variant: 'destructive',
      }),
  });
}

/** useAssignPlanMutation puts an account on a plan by hand (administrators only). */
export function useAssignPlanMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ account, planId }: { account: BillingAccount; planId: PlanId }) =>
      apiJson(subscriptionSchema, 'PUT', `/api/billing/accounts/${account.accountId}/plan`, { planId }),
    retry: false,
    onSuccess: (_data, { account, planId }) => {
      void queryClient.invalidateQueries({ queryKey: billingKeys.accounts });
      void queryClient.invalidateQueries({ queryKey: billingKeys.usage });
      void queryClient.invalidateQueries({ queryKey: billingKeys.subscription });
      showToast({ title: 'Plan assigned', description: `${account.email} is on ${planId} now.`, variant: 'success' });
    },
    onError: (error) =>
      showToast({ title: 'Failed to assign plan', description: errorMessage(error, FALLBACK), variant: 'destructive' }),
  });
}

/** useNotificationsQuery reads the account's notifications (usage warnings), every minute. */
export function useNotificationsQuery() {
  return useQuery({
    queryKey: billingKeys.notifications,
    queryFn: jsonQuery(z.array(notificationSchema)),
    refetchInterval: 60_000,
  });
}

/** useReadNotificationsMutation marks the account's notifications as read. */
export function useReadNotificationsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/user/notifications/read', {});
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: billingKeys.notifications }),
  });
}
