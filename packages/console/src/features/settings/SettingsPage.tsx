import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/auth-context';
import { LogViewer } from '@/features/logs/LogViewer';
import { AccountTab } from './AccountTab';
import { AppearanceTab } from './AppearanceTab';
import { BackupsTab } from './BackupsTab';
import { DatabaseTab } from './DatabaseTab';
import { InstanceTab } from './InstanceTab';
import { ProfileTab } from './ProfileTab';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'account', label: 'Account' },
  { value: 'appearance', label: 'Appearance' },
  { value: 'database', label: 'Database' },
  { value: 'logs', label: 'Logs' },
  { value: 'backups', label: 'Backups', adminOnly: true },
  { value: 'instance', label: 'Instance', adminOnly: true },
] as const;
type Tab = (typeof TABS)[number]['value'];

/**
 * SettingsPage is /settings: Profile, Account, Appearance, Database and Logs tabs, and Backups and Instance for
 * administrators.
 */
export function SettingsPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((t) => !('adminOnly' in t) || user?.isAdmin);
  const requested = params.get('tab');
  const tab: Tab = tabs.find((t) => t.value === requested)?.value ?? 'profile';
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Settings" description="Your profile, account, appearance, database and logs." />
      <Tabs
        value={tab}
        onValueChange={(value) => setParams(value === 'profile' ? {} : { tab: value }, { replace: true })}
        className="grid grid-cols-1 gap-4"
      >
        {/* Five or six tabs do not fit 375 px in one row: there they wrap into two rows, all in sight. */}
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          {tabs.map((t) => (
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
          <LogViewer initialSearch={params.get('search') ?? ''} />
        </TabsContent>
        {user?.isAdmin && (
          <TabsContent value="backups">
            <BackupsTab />
          </TabsContent>
        )}
        {user?.isAdmin && (
          <TabsContent value="instance">
            <InstanceTab />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}
