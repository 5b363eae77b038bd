import { z } from 'zod';

// The instance's own settings, which its administrators change in Settings → Instance: whether people may create
// console accounts themselves (Supabase's "Allow new users to sign up"), and where the terms of the instance are
// published (the registration form asks to accept them only when there are some).

/** INSTANCE_LIMITS bound the settings. */
export const INSTANCE_LIMITS = { termsUrlMax: 2000 } as const;

/** instanceSettingsSchema is GET /api/admin/instance. */
export const instanceSettingsSchema = z.object({
  signupsAllowed: z.boolean(),
  termsUrl: z.string().nullable(),
});
export type InstanceSettings = z.infer<typeof instanceSettingsSchema>;

/** DEFAULT_INSTANCE_SETTINGS: open sign-ups (self-hosting first), no terms. */
export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = { signupsAllowed: true, termsUrl: null };

function isWebAddress(value: string): boolean {
  // No spaces or control characters (a NUL, a line break): URL would quietly drop or encode them.
  if ([...value].some((c) => c.trim() === '' || c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

// An empty address clears the terms, as null does.
const termsUrlSchema = z
  .string({ error: 'The terms URL must be text or null' })
  .trim()
  .max(INSTANCE_LIMITS.termsUrlMax, `The terms URL can have at most ${INSTANCE_LIMITS.termsUrlMax} characters`)
  .refine((value) => value === '' || isWebAddress(value), 'The terms URL must be an http(s) address')
  .transform((value) => (value === '' ? null : value))
  .nullable();

/** instanceSettingsPatchSchema is PATCH /api/admin/instance: any of the settings; an empty terms URL clears it. */
export const instanceSettingsPatchSchema = z
  .object(
    {
      signupsAllowed: z.boolean({ error: 'Sign-ups allowed must be true or false' }),
      termsUrl: termsUrlSchema,
    },
    { error: 'Send the settings as an object' },
  )
  .partial()
  .strict();
export type InstanceSettingsPatch = z.infer<typeof instanceSettingsPatchSchema>;
