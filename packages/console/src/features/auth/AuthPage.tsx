import { SITE_NAME } from '@basalt/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { BrandMark } from '@/components/brand-mark';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ToastRoom } from '@/components/ui/toaster';
import { useConsoleConfig } from '@/lib/config';
import { AuthMarketingPanel } from './AuthMarketingPanel';
import { useLoginMutation, usePasswordResetMutation, useRegisterMutation } from './auth.queries';
import { useAuth } from './auth-context';
import { LoginForm } from './LoginForm';
import { MfaChallengeForm } from './MfaChallengeForm';
import { ProviderButtons } from './ProviderButtons';
import { RegisterForm } from './RegisterForm';

type AuthTab = 'login' | 'register';

/** AuthPage is /auth: sign-in and registration tabs beside the feature panel. */
export function AuthPage() {
  const [params, setParams] = useSearchParams();
  const { signupsAllowed: open } = useConsoleConfig();
  const tab: AuthTab = open && params.get('tab') === 'register' ? 'register' : 'login';
  const setTab = (next: AuthTab) => setParams(next === 'register' ? { tab: next } : {}, { replace: true });
  const [registeredEmail, setRegisteredEmail] = useState('');
  const login = useLoginMutation();
  const register = useRegisterMutation();
  const reset = usePasswordResetMutation();
  const { needsMfa } = useAuth();
  const { termsUrl } = useConsoleConfig();

  return (
    <div className="grid min-h-dvh grid-rows-[auto_1fr] bg-background lg:grid-cols-2">
      <ToastRoom className="lg:col-span-2" />
      <div className="flex flex-col px-5 py-8 sm:px-8">
        <div className="flex items-center gap-2 font-semibold">
          <BrandMark />
          <span className="text-lg tracking-tight">{SITE_NAME}</span>
        </div>
        <main className="mx-auto flex w-full max-w-sm flex-1 flex-col justify-center py-10">
          <div className="mb-8 text-center">
            <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Welcome to {SITE_NAME}</h1>
            <p className="mt-2 text-sm text-muted-foreground">Your Backend-as-a-Service Platform</p>
          </div>
          {needsMfa ? (
            <MfaChallengeForm />
          ) : (
            <Tabs value={tab} onValueChange={(v) => setTab(v === 'register' ? 'register' : 'login')}>
              {open && (
                <TabsList className="mb-6 grid w-full grid-cols-2">
                  <TabsTrigger value="login">Login</TabsTrigger>
                  <TabsTrigger value="register">Register</TabsTrigger>
                </TabsList>
              )}
              <TabsContent value="login">
                <LoginForm
                  key={registeredEmail}
                  defaultEmail={registeredEmail}
                  isPending={login.isPending}
                  isResetPending={reset.isPending}
                  onSubmit={(values) => login.mutate(values)}
                  onForgotPassword={(email) => reset.mutate(email)}
                />
                <ProviderButtons />
                {open ? (
                  <p className="mt-6 text-center text-sm text-muted-foreground">
                    Don&apos;t have an account?{' '}
                    <Button variant="link" className="text-sm" onClick={() => setTab('register')}>
                      Register
                    </Button>
                  </p>
                ) : (
                  <p className="mt-6 text-center text-sm text-muted-foreground">
                    Sign-ups are closed on this instance. Ask its administrator for an account.
                  </p>
                )}
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm
                  termsUrl={termsUrl}
                  isPending={register.isPending}
                  onSubmit={(values) =>
                    register.mutate(values, {
                      // Without a session the account waits for its confirmation mail: sign in afterwards.
                      onSuccess: ({ needsEmailConfirmation }) => {
                        if (!needsEmailConfirmation) return;
                        setRegisteredEmail(values.email);
                        setTab('login');
                      },
                    })
                  }
                />
                <p className="mt-6 text-center text-sm text-muted-foreground">
                  Already have an account?{' '}
                  <Button variant="link" className="text-sm" onClick={() => setTab('login')}>
                    Sign in
                  </Button>
                </p>
              </TabsContent>
            </Tabs>
          )}
        </main>
        <footer className="text-center text-xs text-muted-foreground">
          © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
        </footer>
      </div>
      <AuthMarketingPanel />
    </div>
  );
}
