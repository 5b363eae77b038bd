import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, deleteAccountSchema, profileFormSchema, updateProfileSchema } from './user.js';

// The settings forms' schemas give their messages on the field they belong to.

// The first message of each field, as a form shows it.
function messages(result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const first: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) first[issue.path.join('.')] ??= issue.message;
  return first;
}

describe('settings schemas', () => {
  it('checks the profile form with its messages', () => {
    expect(messages(profileFormSchema.safeParse({ username: 'ab', email: 'x', marketingEmails: false }))).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Please enter a valid email address',
    });
    expect(profileFormSchema.parse({ username: 'alice', email: ' A@B.co ', marketingEmails: true })).toEqual({
      username: 'alice',
      email: 'A@B.co',
      marketingEmails: true,
    });
  });

  it('lets a profile update send any subset of the fields', () => {
    expect(updateProfileSchema.parse({})).toEqual({});
    expect(updateProfileSchema.parse({ marketingEmails: false })).toEqual({ marketingEmails: false });
  });

  it('checks the password form: required current, 8 characters, matching confirmation', () => {
    expect(
      messages(changePasswordFormSchema.safeParse({ currentPassword: '', newPassword: 'Ab1!', confirmPassword: 'x' })),
    ).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'Password must be at least 8 characters',
      confirmPassword: 'Password must be at least 8 characters',
    });
    expect(
      messages(
        changePasswordFormSchema.safeParse({
          currentPassword: 'old',
          newPassword: 'New-Passw0rd!',
          confirmPassword: 'New-Passw0rd?',
        }),
      ),
    ).toEqual({ confirmPassword: 'Passwords do not match' });
  });

  it('needs a non-blank confirmation to delete the account', () => {
    expect(messages(deleteAccountSchema.safeParse({ confirm: '  ' }))).toEqual({
      confirm: 'Type your username to confirm',
    });
    expect(deleteAccountSchema.parse({ confirm: ' alice ' })).toEqual({ confirm: 'alice' });
  });
});
