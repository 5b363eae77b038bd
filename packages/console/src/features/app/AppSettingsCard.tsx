import { APP_LIMITS, type AppInfo, type AppSettings, appSettingsPatchSchema } from '@basalt/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { useApiOrigin, useConsoleConfig } from '@/lib/config';
import { AppPasswordPolicyField, type PasswordPolicyDraft } from './AppPasswordPolicyField';
import { AppProvidersField, type ProviderDraft, providerDraftOf, providerInputOf } from './AppProvidersField';
import { useAppQuery, useUpdateAppSettingsMutation } from './app.queries';

interface Draft {
  signupsAllowed: boolean;
  emailConfirmation: boolean;
  siteUrl: string;
  redirectUrls: string;
  accessTokenLifetime: string;
  anonymousSignIns: boolean;
  mfaEnabled: boolean;
  passwordReauthentication: boolean;
  passwordMinLength: string;
  passwordRequiredCharacters: PasswordPolicyDraft['passwordRequiredCharacters'];
  providers: ProviderDraft[];
}

const draftOf = (settings: AppSettings): Draft => ({
  signupsAllowed: settings.signupsAllowed,
  emailConfirmation: settings.emailConfirmation,
  siteUrl: settings.siteUrl ?? '',
  redirectUrls: settings.redirectUrls.join('\n'),
  accessTokenLifetime: String(settings.accessTokenLifetime),
  anonymousSignIns: settings.anonymousSignIns,
  mfaEnabled: settings.mfaEnabled,
  passwordReauthentication: settings.passwordReauthentication,
  passwordMinLength: String(settings.passwordMinLength),
  passwordRequiredCharacters: settings.passwordRequiredCharacters,
  providers: settings.providers.map(providerDraftOf),
});

const settingsOf = (draft: Draft) => ({
  signupsAllowed: draft.signupsAllowed,
  emailConfirmation: draft.emailConfirmation,
  siteUrl: draft.siteUrl.trim() || null,
  redirectUrls: draft.redirectUrls
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean),
  accessTokenLifetime: Number(draft.accessTokenLifetime),
  anonymousSignIns: draft.anonymousSignIns,
  mfaEnabled: draft.mfaEnabled,
  passwordReauthentication: draft.passwordReauthentication,
  passwordMinLength: Number(draft.passwordMinLength),
  passwordRequiredCharacters: draft.passwordRequiredCharacters,
  providers: draft.providers.map(providerInputOf),
});

function Toggle({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-hint`} checked={checked} onCheckedChange={onChange} />
    </div>
  );
}

function SettingsForm({ app }: { app: AppInfo }) {
  // SITE_URL when set, else the address the console is served at: one app URL everywhere (lib/config).
  const origin = useApiOrigin();
  const { mailConfigured } = useConsoleConfig();
  const save = useUpdateAppSettingsMutation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(app.settings));
  const parsed = appSettingsPatchSchema.safeParse(settingsOf(draft));
  const errors: Record<string, string | undefined> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  const changed = JSON.stringify(settingsOf(draft)) !== JSON.stringify(settingsOf(draftOf(app.settings)));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));

  return (
    <form
      noValidate
      aria-label="App auth settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.success) save.mutate(parsed.data);
      }}
    >
      <CardContent className="grid gap-4">
        <Toggle
          id="app-signups"
          label="Allow sign-ups"
          hint="New users may sign up to your app. Off: only users you add on the Users page."
          checked={draft.signupsAllowed}
          onChange={(value) => set('signupsAllowed', value)}
        />
        <Toggle
          id="app-confirmation"
          label="Confirm email"
          hint={
            mailConfigured
              ? 'New users follow a link mailed to them before they can sign in.'
              : 'New users follow a mailed link before they can sign in. No SMTP is configured: mails go to the server log.'
          }
          checked={draft.emailConfirmation}
          onChange={(value) => set('emailConfirmation', value)}
        />
        <FormField
          id="app-site-url"
          label="Site URL"
          error={errors.siteUrl}
          hint={<p className="text-xs text-muted-foreground">Where mail links lead by default. Empty: {origin}</p>}
        >
          <Input
            {...fieldAria('app-site-url', errors.siteUrl)}
            placeholder={origin}
            value={draft.siteUrl}
            onChange={(e) => set('siteUrl', e.target.value)}
          />
        </FormField>
        <FormField
          id="app-redirects"
          label="Redirect URLs"
          error={errors.redirectUrls}
          hint={
            <p className="text-xs text-muted-foreground">
              Other addresses mail links may lead to (redirectTo), one per line.
            </p>
          }
        >
          <Textarea
            {...fieldAria('app-redirects', errors.redirectUrls)}
            rows={3}
            placeholder="https://myapp.example/welcome"
            value={draft.redirectUrls}
            onChange={(e) => set('redirectUrls', e.target.value)}
          />
        </FormField>
        <FormField
          id="app-token-lifetime"
          label="Access-token lifetime (seconds)"
          error={errors.accessTokenLifetime}
          hint={
            <p className="text-xs text-muted-foreground">
              From {APP_LIMITS.accessTokenMinSeconds} to {APP_LIMITS.accessTokenMaxSeconds}; supabase-js refreshes
              tokens before they expire.
            </p>
          }
        >
          <Input
            {...fieldAria('app-token-lifetime', errors.accessTokenLifetime)}
            inputMode="numeric"
            value={draft.accessTokenLifetime}
            onChange={(e) => set('accessTokenLifetime', e.target.value)}
          />
        </FormField>
        <AppPasswordPolicyField
          draft={draft}
          errors={errors}
          onChange={(change) => setDraft((current) => ({ ...current, ...change }))}
        />
        <Toggle
          id="app-anonymous"
          label="Allow anonymous sign-ins"
          hint="signInAnonymously() gives visitors a user without an address, which they can keep by adding one."
          checked={draft.anonymousSignIns}
          onChange={(value) => set('anonymousSignIns', value)}
        />
        <Toggle
          id="app-mfa"
          label="Two-factor authentication"
          hint="Users may add an authenticator app (TOTP) and raise their sessions to aal2."
          checked={draft.mfaEnabled}
          onChange={(value) => set('mfaEnabled', value)}
        />
        <Toggle
          id="app-reauth"
          label="Confirm password changes by mail"
          hint="A password change from a session older than a day needs the code of reauthenticate()."
          checked={draft.passwordReauthentication}
          onChange={(value) => set('passwordReauthentication', value)}
        />
        <AppProvidersField
          providers={draft.providers}
          callbackUrl={`${origin}/auth/v1/callback`}
          error={errors.providers}
          onChange={(providers) => set('providers', providers)}
        />
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="submit" disabled={!changed || !parsed.success || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </CardFooter>
    </form>
  );
}

/**
 * AppSettingsCard edits the app's auth settings: sign-ups, confirmation, site and redirect URLs, token lifetime,
 * the end users' password policy, anonymous sign-ins, two-factor authentication, reauthentication and the sign-in providers.
 */
export function AppSettingsCard() {
  const app = useAppQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>App auth settings</CardTitle>
        <CardDescription>How the users of your app sign up and stay signed in.</CardDescription>
      </CardHeader>
      {app.data && <SettingsForm key={JSON.stringify(app.data.settings)} app={app.data} />}
    </Card>
  );
}
