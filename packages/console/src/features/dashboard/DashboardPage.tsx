import { PageHeader } from '@/components/ui/page-header';
import { TrafficPanel } from '@/features/monitoring/TrafficPanel';
import { SharedTablesPanel } from '@/features/projects/SharedTablesPanel';
import { ApiEndpointsReference } from './ApiEndpointsReference';
import { DatabaseTablesPanel } from './DatabaseTablesPanel';
import { RecentActivityPanel } from './RecentActivityPanel';
import { StatCards } from './StatCards';

/** DashboardPage is /: the stat cards, the API traffic charts, the tables with their row counts, recent activity and the API reference. */
export function DashboardPage() {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Dashboard" description="An overview of your requests, storage and tables." />
      <StatCards />
      <TrafficPanel />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <DatabaseTablesPanel />
        <RecentActivityPanel />
      </div>
      <SharedTablesPanel />
      <ApiEndpointsReference />
    </div>
  );
}
