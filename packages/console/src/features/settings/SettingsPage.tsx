import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { LogViewer } from '@/features/logs/LogViewer';
import { AccountTab } from './AccountTab';
import { AppearanceTab } from './AppearanceTab';
import { DatabaseTab } from './DatabaseTab';
import { ProfileTab } from './ProfileTab';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'account', label: 'Account' },
  { value: 'appearance', label: 'Appearance' },
  { value: 'database', label: 'Database' },
  { value: 'logs', label: 'Logs' },
] as const;
type Tab = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is Tab => TABS.some((t) => t.value === value);

/** SettingsPage is /settings: Profile, Account, Appearance, Database and Logs tabs. */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'profile';
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Settings" description="Your profile, account, appearance, database and logs." />
      <Tabs
        value={tab}
        onValueChange={(value) => setParams(value === 'profile' ? {} : { tab: value }, { replace: true })}
        className="grid grid-cols-1 gap-4"
      >
        {/* Five tabs do not fit 375 px in one row: there they wrap into two rows, all in sight. */}
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab />
        </TabsContent>
        <TabsContent value="appearance">
          <AppearanceTab />
        </TabsContent>
        <TabsContent value="database">
          <DatabaseTab />
        </TabsContent>
        <TabsContent value="logs">
          <LogViewer />
        </TabsContent>
      </Tabs>
    </div>
  );
}
