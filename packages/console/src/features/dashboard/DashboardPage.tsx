import { lazy, Suspense } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { SharedTablesPanel } from '@/features/projects/SharedTablesPanel';
import { ApiEndpointsReference } from './ApiEndpointsReference';
import { DatabaseTablesPanel } from './DatabaseTablesPanel';
import { RecentActivityPanel } from './RecentActivityPanel';
import { StatCards } from './StatCards';

// The traffic charts come with Recharts: their own chunk, after the page.
const TrafficPanel = lazy(() => import('@/features/monitoring/TrafficPanel'));

/** DashboardPage is /: the stat cards, the API traffic charts, the tables with their row counts, recent activity and the API reference. */
export function DashboardPage() {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Dashboard" description="An overview of your requests, storage and tables." />
      <StatCards />
      <Suspense fallback={<div className="h-72 rounded-xl border bg-card" />}>
        <TrafficPanel />
      </Suspense>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <DatabaseTablesPanel />
        <RecentActivityPanel />
      </div>
      <SharedTablesPanel />
      <ApiEndpointsReference />
    </div>
  );
}
