import { PASSWORD_CHARACTER_RULE_IDS, PASSWORD_CHARACTER_RULES, type PasswordCharacterRule } from '@basalt/shared';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';

/** PasswordPolicyDraft is the policy as typed: the length stays text until it is saved. */
export interface PasswordPolicyDraft {
  passwordMinLength: string;
  passwordRequiredCharacters: PasswordCharacterRule;
}

/**
 * AppPasswordPolicyField edits the app's password policy for its end users (Supabase's settings): the minimum
 * length and the kinds of characters a password needs. Console accounts are not concerned.
 */
export function AppPasswordPolicyField({
  draft,
  errors,
  onChange,
}: {
  draft: PasswordPolicyDraft;
  errors: { passwordMinLength?: string; passwordRequiredCharacters?: string };
  onChange: (change: Partial<PasswordPolicyDraft>) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-[14rem_1fr]">
      <FormField
        id="app-password-min"
        label="Minimum password length"
        error={errors.passwordMinLength}
        hint={<p className="text-xs text-muted-foreground">At least 6 (the default).</p>}
      >
        <Input
          {...fieldAria('app-password-min', errors.passwordMinLength)}
          inputMode="numeric"
          value={draft.passwordMinLength}
          onChange={(e) => onChange({ passwordMinLength: e.target.value })}
        />
      </FormField>
      <FormField
        id="app-password-characters"
        label="Required characters"
        error={errors.passwordRequiredCharacters}
        hint={<p className="text-xs text-muted-foreground">Passwords of your app's users must contain each kind.</p>}
      >
        <NativeSelect
          {...fieldAria('app-password-characters', errors.passwordRequiredCharacters)}
          value={draft.passwordRequiredCharacters}
          onChange={(e) => onChange({ passwordRequiredCharacters: e.target.value as PasswordCharacterRule })}
        >
          {PASSWORD_CHARACTER_RULE_IDS.map((id) => (
            <option key={id} value={id}>
              {PASSWORD_CHARACTER_RULES[id].label}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </div>
  );
}
