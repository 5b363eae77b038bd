import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import { useSignInProvidersQuery } from './auth-providers.queries';

/**
 * ProviderButtons are the "Continue with …" buttons, one per provider the operator configured; nothing when there
 * is none. The browser goes to the provider and comes back to the dashboard with the session in the address.
 */
export function ProviderButtons() {
  const providers = useSignInProvidersQuery();
  const [pending, setPending] = useState<string | null>(null);
  const list = providers.data ?? [];
  if (list.length === 0) return null;

  const start = async (id: string) => {
    setPending(id);
    const { error } = await getSupabase().auth.signInWithOAuth({
      // Any configured id, custom OpenID Connect issuers (custom:<name>) included.
      provider: id as 'github',
      options: { redirectTo: `${window.location.origin}/` },
    });
    if (error) {
      setPending(null);
      showToast({ title: 'Sign-in failed', description: errorMessage(error), variant: 'destructive' });
    }
  };

  return (
    <div className="mt-6 grid gap-3">
      <div className="flex items-center gap-3 text-xs uppercase text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      {list.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          variant="outline"
          className="w-full"
          disabled={pending !== null}
          onClick={() => void start(provider.id)}
        >
          {pending === provider.id ? 'Redirecting...' : `Continue with ${provider.name}`}
        </Button>
      ))}
    </div>
  );
}
