import type { InstanceSettings } from '@basalt/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { ApiError } from '@/lib/api';
import { useInstanceSettingsQuery, useSaveInstanceSettingsMutation } from './instance.queries';

function InstanceForm({ settings }: { settings: InstanceSettings }) {
  const save = useSaveInstanceSettingsMutation();
  const [signupsAllowed, setSignupsAllowed] = useState(settings.signupsAllowed);
  const [termsUrl, setTermsUrl] = useState(settings.termsUrl ?? '');
  const fieldErrors = save.error instanceof ApiError ? (save.error.validationErrors ?? {}) : {};
  const changed = signupsAllowed !== settings.signupsAllowed || termsUrl.trim() !== (settings.termsUrl ?? '');
  return (
    <form
      noValidate
      aria-label="Instance settings"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ signupsAllowed, termsUrl });
      }}
    >
      <CardContent className="grid gap-5">
        <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
          <div className="grid gap-1">
            <Label htmlFor="instance-signups">Allow new accounts to sign up</Label>
            <p id="instance-signups-hint" className="text-xs text-muted-foreground">
              Off: the sign-in page offers no registration and existing accounts still sign in. Your app's own users are
              set on the API page.
            </p>
          </div>
          <Switch
            id="instance-signups"
            aria-describedby="instance-signups-hint"
            checked={signupsAllowed}
            onCheckedChange={setSignupsAllowed}
          />
        </div>
        <FormField
          id="instance-terms"
          label="Terms and conditions URL"
          error={fieldErrors.termsUrl?.[0]}
          hint={
            <p className="text-xs text-muted-foreground">
              Registration asks to accept the terms at this address. Empty: there are none, and nothing is asked.
            </p>
          }
        >
          <Input
            {...fieldAria('instance-terms', fieldErrors.termsUrl?.[0])}
            type="url"
            placeholder="https://example.com/terms"
            value={termsUrl}
            onChange={(e) => setTermsUrl(e.target.value)}
          />
        </FormField>
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="submit" disabled={!changed || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </CardFooter>
    </form>
  );
}

/** InstanceTab is Settings → Instance, for administrators: console sign-ups and the terms URL. */
export function InstanceTab() {
  const query = useInstanceSettingsQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign-ups and terms</CardTitle>
        <CardDescription>Who may create a console account on this instance, and the terms they accept.</CardDescription>
      </CardHeader>
      {query.data ? (
        <InstanceForm key={JSON.stringify(query.data)} settings={query.data} />
      ) : (
        <CardContent>
          {query.isError ? (
            <p role="alert" className="text-sm text-destructive">
              The instance settings could not be loaded.
            </p>
          ) : (
            <Skeleton className="h-24 w-full" />
          )}
        </CardContent>
      )}
    </Card>
  );
}
