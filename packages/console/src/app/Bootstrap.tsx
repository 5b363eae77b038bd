import type { ConsoleConfig } from '@basalt/shared';
import { ServerCrash } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { CenteredSpinner } from '@/components/ui/spinner';
import { setAccessTokenProvider } from '@/lib/api';
import { fetchConsoleConfig } from '@/lib/config';
import { initSupabase } from '@/lib/supabase';
import { App } from './App';

type BootState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; config: ConsoleConfig };

/** Bootstrap loads /api/config once, creates the Supabase client with its anon key, then renders the app. */
export function Bootstrap() {
  const [state, setState] = useState<BootState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load on Retry.
  useEffect(() => {
    let cancelled = false;
    fetchConsoleConfig().then(
      (config) => {
        if (cancelled) return;
        const supabase = initSupabase(config.anonKey);
        setAccessTokenProvider(async () => (await supabase.auth.getSession()).data.session?.access_token);
        setState({ status: 'ready', config });
      },
      (error: unknown) => {
        if (cancelled) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  if (state.status === 'loading') return <CenteredSpinner fullScreen label="Starting the console" />;
  if (state.status === 'failed') {
    return (
      <div className="flex min-h-dvh items-center justify-center p-4">
        <Card role="alert" className="w-full max-w-md">
          <CardHeader>
            <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-destructive/10 text-destructive">
              <ServerCrash className="size-5" />
            </div>
            <CardTitle>The console could not start</CardTitle>
            <CardDescription>{state.message}</CardDescription>
          </CardHeader>
          <CardFooter>
            <Button onClick={retry}>Retry</Button>
          </CardFooter>
        </Card>
      </div>
    );
  }
  return <App config={state.config} />;
}
