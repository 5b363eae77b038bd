import { ArrowUpRight, ChartLine, Database, HardDrive, type LucideIcon, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useStatsQuery } from './dashboard.queries';

function StatCard({
  title,
  value,
  hint,
  to,
  chart,
  icon: Icon,
  loading,
}: {
  title: string;
  value: string;
  hint: string;
  to: string;
  /** The dashboard's chart of this figure (its anchor and name), linked beside the card's own page. */
  chart?: { id: string; name: string };
  icon: LucideIcon;
  loading: boolean;
}) {
  return (
    <Card className="group relative transition-colors hover:border-primary/40">
      <Link
        to={to}
        className="flex flex-col gap-3 p-5 outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-xl"
      >
        <div className="flex items-center justify-between text-sm font-medium text-muted-foreground">
          <span className="flex items-center gap-2">
            <Icon aria-hidden className="size-4" />
            {title}
          </span>
          <ArrowUpRight aria-hidden className="size-4 opacity-0 transition-opacity group-hover:opacity-100" />
        </div>
        {loading ? (
          <Skeleton className="h-8 w-20" />
        ) : (
          <span className="text-2xl font-semibold tracking-tight tabular-nums">{value}</span>
        )}
        <span className={chart ? 'pr-14 text-xs text-muted-foreground' : 'text-xs text-muted-foreground'}>{hint}</span>
      </Link>
      {chart && (
        // A sibling of the card's link, not inside it: a link may not hold another.
        <a
          href={`#${chart.id}`}
          aria-label={chart.name}
          className="absolute right-4 bottom-4 flex items-center gap-1 rounded text-xs font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring outline-none"
        >
          <ChartLine aria-hidden className="size-3.5" />
          Chart
        </a>
      )}
    </Card>
  );
}

/**
 * StatCards are the dashboard's three cards: API Requests → /billing, Database Size → /settings, Tables → /tables;
 * the first two also link to their chart below (the API traffic and storage growth charts).
 * Database Size is what the account stores: its tables and its stored files (file storage), each said below.
 * API Requests is Billing's "API Calls" figure (the server's one count of this billing period), so the two pages
 * agree; the console's own calls are not in it.
 */
export function StatCards() {
  const stats = useStatsQuery();
  const loading = stats.isPending;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <StatCard
        title="API Requests"
        value={(stats.data?.apiCalls ?? 0).toLocaleString('en-US')}
        hint="API calls this billing period"
        to="/billing"
        chart={{ id: 'api-traffic', name: 'API traffic chart' }}
        icon={Zap}
        loading={loading}
      />
      <StatCard
        title="Database Size"
        value={stats.data?.totalSize ?? stats.data?.storageSize ?? '0 MB'}
        hint={`Database ${stats.data?.storageSize ?? '0 MB'} · Files ${stats.data?.filesSize ?? '0 MB'}`}
        to="/settings"
        chart={{ id: 'storage-growth', name: 'Storage growth chart' }}
        icon={HardDrive}
        loading={loading}
      />
      <StatCard
        title="Tables"
        value={(stats.data?.tables ?? 0).toLocaleString('en-US')}
        hint="Tables in your database"
        to="/tables"
        icon={Database}
        loading={loading}
      />
    </div>
  );
}
