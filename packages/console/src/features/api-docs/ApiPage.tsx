import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AppKeysCard } from '@/features/app/AppKeysCard';
import { AppSettingsCard } from '@/features/app/AppSettingsCard';
import { ApiKeysTab } from '@/features/keys/ApiKeysTab';
import { DocumentationTab } from './DocumentationTab';
import { EndpointsTab } from './EndpointsTab';

const TABS = ['keys', 'endpoints', 'documentation'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => TABS.some((t) => t === value);

/** ApiPage is /api: API Keys, Endpoints and Documentation tabs. */
export function ApiPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'keys';
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="API" description="Your app keys, API keys, endpoints and documentation." />
      <Tabs
        value={tab}
        onValueChange={(value) => setParams(value === 'keys' ? {} : { tab: value }, { replace: true })}
        className="grid grid-cols-1 gap-4"
      >
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="keys">API Keys</TabsTrigger>
          <TabsTrigger value="endpoints">Endpoints</TabsTrigger>
          <TabsTrigger value="documentation">Documentation</TabsTrigger>
        </TabsList>
        <TabsContent value="keys" className="grid grid-cols-1 gap-6">
          <AppKeysCard />
          <ApiKeysTab />
          <AppSettingsCard />
        </TabsContent>
        <TabsContent value="endpoints">
          <EndpointsTab />
        </TabsContent>
        <TabsContent value="documentation">
          <DocumentationTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
