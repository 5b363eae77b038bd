import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { ProfileForm } from './ProfileForm';
import { useProfileQuery } from './settings.queries';

function ProfileSkeleton() {
  return (
    <CardContent className="grid gap-5" data-testid="profile-skeleton">
      {Array.from({ length: 2 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <div key={i} className="grid gap-2">
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
      <Skeleton className="h-16 w-full" />
    </CardContent>
  );
}

/** ProfileTab is Settings › Profile. */
export function ProfileTab() {
  const profile = useProfileQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>How you appear in Basalt, and where we reach you.</CardDescription>
      </CardHeader>
      {profile.isPending ? (
        <ProfileSkeleton />
      ) : profile.isError ? (
        <LoadErrorState
          title="Failed to load your profile"
          error={profile.error}
          onRetry={() => void profile.refetch()}
        />
      ) : (
        <ProfileForm key={profile.data.id} profile={profile.data} />
      )}
    </Card>
  );
}
