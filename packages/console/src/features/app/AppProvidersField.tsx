import { OAUTH_PROVIDER_KINDS, type OAuthProviderInfo, type OAuthProviderKind } from '@basalt/shared';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';

/** ProviderDraft is one provider being edited; an empty secret keeps the stored one. */
export interface ProviderDraft {
  kind: OAuthProviderKind;
  name: string;
  clientId: string;
  clientSecret: string;
  url: string;
  hasClientSecret: boolean;
}

const KIND_LABELS: Record<OAuthProviderKind, string> = {
  github: 'GitHub',
  google: 'Google',
  gitlab: 'GitLab',
  oidc: 'OpenID Connect',
};

/** providerDraftOf reads a stored provider into the form. */
export const providerDraftOf = (p: OAuthProviderInfo): ProviderDraft => ({
  kind: p.kind,
  name: p.kind === 'oidc' ? p.name : '',
  clientId: p.clientId,
  clientSecret: '',
  url: p.url ?? '',
  hasClientSecret: p.hasClientSecret,
});

/** providerInputOf is what PATCH /api/app takes of a provider draft. */
export const providerInputOf = (p: ProviderDraft) => ({
  kind: p.kind,
  ...(p.kind === 'oidc' ? { name: p.name.trim() } : {}),
  clientId: p.clientId.trim(),
  ...(p.clientSecret ? { clientSecret: p.clientSecret } : {}),
  url: p.url.trim() || null,
});

/** AppProvidersField edits the app's "Sign in with …" providers and shows the callback to register. */
export function AppProvidersField({
  providers,
  callbackUrl,
  error,
  onChange,
}: {
  providers: ProviderDraft[];
  callbackUrl: string;
  error?: string;
  onChange: (next: ProviderDraft[]) => void;
}) {
  const update = (index: number, patch: Partial<ProviderDraft>) =>
    onChange(providers.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  return (
    <fieldset className="grid gap-3 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">Sign in with a provider</legend>
      <div className="grid gap-1 text-xs text-muted-foreground">
        <span>Register this callback URL with each provider:</span>
        <div className="flex items-center gap-2">
          <code className="break-all rounded bg-muted px-2 py-1 font-mono">{callbackUrl}</code>
          <CopyButton value={callbackUrl} label="Copy callback URL" />
        </div>
      </div>
      {providers.map((provider, index) => {
        const id = `provider-${index}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; their order is the list's.
          <div key={index} className="grid gap-3 rounded-md bg-muted/40 p-3 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-kind`}>Provider</Label>
              <NativeSelect
                id={`${id}-kind`}
                value={provider.kind}
                onChange={(e) => update(index, { kind: e.target.value as OAuthProviderKind })}
              >
                {OAUTH_PROVIDER_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {KIND_LABELS[kind]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {provider.kind === 'oidc' && (
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-name`}>Button name</Label>
                <Input
                  id={`${id}-name`}
                  placeholder="Acme"
                  value={provider.name}
                  onChange={(e) => update(index, { name: e.target.value })}
                />
              </div>
            )}
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-client-id`}>Client ID</Label>
              <Input
                id={`${id}-client-id`}
                value={provider.clientId}
                onChange={(e) => update(index, { clientId: e.target.value })}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-secret`}>Client secret</Label>
              <Input
                id={`${id}-secret`}
                type="password"
                autoComplete="off"
                placeholder={provider.hasClientSecret ? 'Stored — type to replace' : ''}
                value={provider.clientSecret}
                onChange={(e) => update(index, { clientSecret: e.target.value })}
              />
            </div>
            <div className="grid gap-1.5 sm:col-span-2">
              <Label htmlFor={`${id}-url`}>
                {provider.kind === 'oidc' ? 'Issuer URL' : 'Base URL (optional: GitHub Enterprise, self-hosted GitLab)'}
              </Label>
              <div className="flex gap-2">
                <Input
                  id={`${id}-url`}
                  placeholder={provider.kind === 'oidc' ? 'https://id.example.com' : ''}
                  value={provider.url}
                  onChange={(e) => update(index, { url: e.target.value })}
                />
                <Button
                  type="button"
                  variant="outline"
                  size="icon"
                  aria-label={`Remove ${KIND_LABELS[provider.kind]}`}
                  onClick={() => onChange(providers.filter((_, i) => i !== index))}
                >
                  <Trash2 />
                </Button>
              </div>
            </div>
          </div>
        );
      })}
      {error && <p className="text-xs text-destructive">{error}</p>}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="justify-self-start"
        onClick={() =>
          onChange([
            ...providers,
            { kind: 'github', name: '', clientId: '', clientSecret: '', url: '', hasClientSecret: false },
          ])
        }
      >
        <Plus /> Add provider
      </Button>
    </fieldset>
  );
}
