import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth/auth-context';
import { AccountDataCard } from './AccountDataCard';
import { ChangePasswordForm } from './ChangePasswordForm';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { TwoFactorCard } from './TwoFactorCard';

/** AccountTab is Settings › Account: the password change, two-factor authentication, your data and the Danger Zone. */
export function AccountTab() {
  const { user } = useAuth();
  const [deleting, setDeleting] = useState(false);
  return (
    <div className="grid grid-cols-1 gap-6">
      <ChangePasswordForm />
      <TwoFactorCard />
      <AccountDataCard />
      <Card className="border-destructive/40">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-destructive">
            <TriangleAlert aria-hidden className="size-4" />
            Danger Zone
          </CardTitle>
          <CardDescription>
            Deleting your account removes all of its tables, records, history and API keys.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="destructive" onClick={() => setDeleting(true)}>
            Delete Account
          </Button>
        </CardContent>
      </Card>
      <DeleteAccountDialog username={user?.username ?? ''} open={deleting} onOpenChange={setDeleting} />
    </div>
  );
}
