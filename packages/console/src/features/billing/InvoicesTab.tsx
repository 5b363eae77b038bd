import type { Invoice } from '@basalt/shared';
import { Download, Receipt } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDate } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

// Invoices: id, date, amount (cents shown /100 with 2 decimals), status (paid green, open outlined, anything else
// destructive) and a Download link that opens in a new tab.

function InvoiceStatus({ status }: { status: string }) {
  if (status === 'paid') return <Badge className="border-transparent bg-success/15 text-success">paid</Badge>;
  if (status === 'open') return <Badge variant="outline">open</Badge>;
  return <Badge variant="destructive">{status}</Badge>;
}

/** formatInvoiceAmount shows an amount in cents as dollars with 2 decimals. */
export const formatInvoiceAmount = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-28' },
  { skeleton: 'h-4 w-20' },
  { skeleton: 'h-4 w-14' },
  { skeleton: 'h-4 w-12' },
  { skeleton: 'ml-auto h-4 w-16' },
];

/** InvoicesTab lists the account's invoices. */
export function InvoicesTab({ invoices }: { invoices: Invoice[] | undefined }) {
  if (invoices && invoices.length === 0) {
    return (
      <Card>
        <EmptyState icon={Receipt} title="No invoices yet" />
      </Card>
    );
  }
  return (
    <Card className="overflow-hidden">
      <Table aria-label="Invoices">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Invoice</TableHead>
            <TableHead className="hidden sm:table-cell">Date</TableHead>
            <TableHead>Amount</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">
              <span className="sr-only">Download</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {!invoices ? (
            <SkeletonTableRows rows={3} cells={SKELETON_CELLS} />
          ) : (
            invoices.map((invoice) => (
              <TableRow key={invoice.id}>
                <TableCell className="max-w-28 sm:max-w-none">
                  <div className="truncate font-mono text-xs">{invoice.id}</div>
                  <div className="text-xs text-muted-foreground sm:hidden">{formatDate(invoice.date)}</div>
                </TableCell>
                <TableCell className="hidden whitespace-nowrap sm:table-cell">{formatDate(invoice.date)}</TableCell>
                <TableCell className="tabular-nums">{formatInvoiceAmount(invoice.amount)}</TableCell>
                <TableCell>
                  <InvoiceStatus status={invoice.status} />
                </TableCell>
                <TableCell className="text-right">
                  {invoice.pdfUrl && (
                    <a
                      href={invoice.pdfUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
                    >
                      <Download aria-hidden className="size-4" />
                      <span className="sr-only sm:not-sr-only">Download</span>
                    </a>
                  )}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </Card>
  );
}
