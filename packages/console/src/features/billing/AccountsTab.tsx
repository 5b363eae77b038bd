import { type BillingAccount, PLAN_IDS, type Plan, type PlanId, usagePercent } from '@basalt/shared';
import { useState } from 'react';
import { Card } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { countOf, Pager } from '@/components/ui/pager';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAssignPlanMutation, useBillingAccountsQuery } from './billing.queries';
import { SubscriptionStatusBadge } from './SubscriptionStatusBadge';
import { formatAmount } from './UsageMeter';

// The instance administrator's view: every account's plan, status and usage, a page at a time, and a plan
// assigned by hand.

/** ACCOUNTS_PAGE_SIZE is how many accounts a page shows. */
const ACCOUNTS_PAGE_SIZE = 20;

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-40' },
  { skeleton: 'h-8 w-32' },
  { skeleton: 'h-4 w-16' },
  { skeleton: 'h-4 w-24' },
  { skeleton: 'h-4 w-20' },
];

function used(value: number, limit: number | null, unit = '') {
  if (limit === null) return `${formatAmount(value)}${unit}`;
  return `${formatAmount(value)} / ${formatAmount(limit)}${unit} (${Math.round(usagePercent(value, limit))}%)`;
}

/** AccountsTab lists every account with its plan and usage, paged; the administrator changes plans here. */
export function AccountsTab({ plans }: { plans: Plan[] }) {
  const [page, setPage] = useState(1);
  const accounts = useBillingAccountsQuery({ page, limit: ACCOUNTS_PAGE_SIZE });
  const pagination = accounts.data?.pagination;
  const assign = useAssignPlanMutation();
  if (accounts.isError && !accounts.data) {
    return (
      <LoadErrorState title="Failed to fetch accounts" error={accounts.error} onRetry={() => void accounts.refetch()} />
    );
  }
  const nameOf = (id: PlanId) => plans.find((p) => p.id === id)?.name ?? id;
  return (
    <Card className="overflow-hidden">
      <Table aria-label="Accounts and plans">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Account</TableHead>
            <TableHead>Plan</TableHead>
            <TableHead className="hidden sm:table-cell">Status</TableHead>
            <TableHead className="hidden md:table-cell">API calls</TableHead>
            <TableHead className="hidden lg:table-cell">Storage</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {!accounts.data ? (
            <SkeletonTableRows rows={3} cells={SKELETON_CELLS} />
          ) : (
            accounts.data.data.map((account: BillingAccount) => (
              <TableRow key={account.accountId}>
                <TableCell className="max-w-40 sm:max-w-none">
                  <div className="truncate font-medium">{account.username ?? account.email}</div>
                  <div className="truncate text-xs text-muted-foreground">{account.email}</div>
                </TableCell>
                <TableCell>
                  <NativeSelect
                    aria-label={`Plan of ${account.email}`}
                    value={account.plan}
                    disabled={assign.isPending}
                    onChange={(e) => assign.mutate({ account, planId: e.target.value as PlanId })}
                  >
                    {PLAN_IDS.map((id) => (
                      <option key={id} value={id}>
                        {nameOf(id)}
                      </option>
                    ))}
                  </NativeSelect>
                </TableCell>
                <TableCell className="hidden sm:table-cell">
                  <SubscriptionStatusBadge status={account.status} />
                </TableCell>
                <TableCell className="hidden whitespace-nowrap tabular-nums md:table-cell">
                  {used(account.usage.apiCalls, account.usage.maxApiCalls)}
                </TableCell>
                <TableCell className="hidden whitespace-nowrap tabular-nums lg:table-cell">
                  {used(account.usage.storageMb, account.usage.maxStorageMb, ' MB')}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      {pagination && pagination.totalItems > 0 && (
        <Pager
          summary={countOf(pagination.totalItems, 'account')}
          page={pagination.currentPage}
          totalPages={pagination.totalPages}
          onPageChange={setPage}
        />
      )}
    </Card>
  );
}
