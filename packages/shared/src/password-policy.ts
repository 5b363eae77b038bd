import { z } from 'zod';

// An app's own password policy for its end users, with Supabase's settings: a minimum length and which kinds of
// characters a password must contain. Console accounts keep the stricter rules of auth.schemas.ts.

/** PASSWORD_CHARACTER_RULES are Supabase's "required characters" choices, each a list of character sets. */
export const PASSWORD_CHARACTER_RULES = {
  none: { label: 'No required characters', sets: [] },
  letters_digits: {
    label: 'Letters and digits',
    sets: ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  },
  lower_upper_digits: {
    label: 'Lowercase, uppercase letters and digits',
    sets: ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  },
  lower_upper_digits_symbols: {
    label: 'Lowercase, uppercase letters, digits and symbols',
    sets: [
      'abcdefghijklmnopqrstuvwxyz',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
      '0123456789',
      '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~',
    ],
  },
} as const;

export type PasswordCharacterRule = keyof typeof PASSWORD_CHARACTER_RULES;
export const PASSWORD_CHARACTER_RULE_IDS = Object.keys(PASSWORD_CHARACTER_RULES) as [
  PasswordCharacterRule,
  ...PasswordCharacterRule[],
];

/** PASSWORD_POLICY_LIMITS bound an app's minimum length: Supabase's floor of 6, Basalt's longest password. */
export const PASSWORD_POLICY_LIMITS = { minLengthFloor: 6, minLengthCeiling: 100, passwordMax: 100 } as const;

/** PasswordPolicy is an app's rule for its end users' passwords. */
export interface PasswordPolicy {
  minLength: number;
  requiredCharacters: PasswordCharacterRule;
}

/** DEFAULT_APP_PASSWORD_POLICY is Supabase's default: at least 6 characters of any kind. */
export const DEFAULT_APP_PASSWORD_POLICY: PasswordPolicy = { minLength: 6, requiredCharacters: 'none' };

/** passwordMinLengthSchema validates the minimum length an app asks for. */
export const passwordMinLengthSchema = z
  .number({ error: 'The minimum password length must be a number' })
  .int('The minimum password length must be a whole number')
  .min(PASSWORD_POLICY_LIMITS.minLengthFloor, 'The minimum password length must be at least 6')
  .max(PASSWORD_POLICY_LIMITS.minLengthCeiling, 'The minimum password length must be at most 100');

/** passwordCharactersSchema validates the required kinds of characters. */
export const passwordCharactersSchema = z.enum(PASSWORD_CHARACTER_RULE_IDS, {
  error: `Required characters must be one of ${PASSWORD_CHARACTER_RULE_IDS.join(', ')}`,
});

/** PolicyFailure is what a password lacks, in GoTrue's reasons and sentences. */
export interface PolicyFailure {
  reasons: Array<'length' | 'characters'>;
  messages: string[];
}

/** appPasswordFailures checks a password against an app's policy; null when it meets it. */
export function appPasswordFailures(password: string, policy: PasswordPolicy): PolicyFailure | null {
  const reasons: PolicyFailure['reasons'] = [];
  const messages: string[] = [];
  const length = [...password].length;
  if (length < policy.minLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  } else if (length > PASSWORD_POLICY_LIMITS.passwordMax) {
    reasons.push('length');
    messages.push('Password is too long.');
  }
  const sets: readonly string[] = PASSWORD_CHARACTER_RULES[policy.requiredCharacters].sets;
  if (sets.some((set) => ![...password].some((c) => set.includes(c)))) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`);
  }
  return reasons.length > 0 ? { reasons, messages } : null;
}
