import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/auth-context';
import { AppUsersTab } from './AppUsersTab';
import { ConsoleAccountsTab } from './ConsoleAccountsTab';

/**
 * UsersPage is /users: the end users of the account's app, and for an
 * instance administrator a second tab with the console accounts.
 */
export function UsersPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const header = <PageHeader title="Users" description="The users of your app: they sign in with your app keys." />;
  if (!user?.isAdmin) {
    return (
      <div className="grid grid-cols-1 gap-6">
        {header}
        <AppUsersTab />
      </div>
    );
  }
  const tab = params.get('tab') === 'accounts' ? 'accounts' : 'app';
  return (
    <div className="grid grid-cols-1 gap-6">
      {header}
      <Tabs
        value={tab}
        onValueChange={(value) => setParams(value === 'app' ? {} : { tab: value }, { replace: true })}
        className="grid grid-cols-1 gap-4"
      >
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="app">App users</TabsTrigger>
          <TabsTrigger value="accounts">Console accounts</TabsTrigger>
        </TabsList>
        <TabsContent value="app">
          <AppUsersTab />
        </TabsContent>
        <TabsContent value="accounts">
          <ConsoleAccountsTab selfId={user.id} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
