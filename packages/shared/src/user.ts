import { z } from 'zod';
import { AUTH_LIMITS, passwordSchema, usernameSchema } from './auth.schemas.js';

// The account's own settings: the
// request bodies the server validates and the forms the console builds from them, with the same messages.

/** profileEmailSchema is the profile form's email: valid, at most 100 characters. */
const profileEmailSchema = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .max(AUTH_LIMITS.emailMax, 'Email cannot exceed 100 characters')
  .pipe(z.email('Please enter a valid email address'));

const marketingEmailsSchema = z.boolean({ error: 'Marketing emails must be true or false' });

/** profileFormSchema is the Settings › Profile form: every field, each with its message. */
export const profileFormSchema = z.object({
  username: usernameSchema,
  email: profileEmailSchema,
  marketingEmails: marketingEmailsSchema,
});
export type ProfileFormInput = z.infer<typeof profileFormSchema>;

/** updateProfileSchema is the body of PATCH /api/user/profile: any of the form's fields; the others stay. */
export const updateProfileSchema = profileFormSchema.partial();
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** userProfileSchema is GET /api/user/profile: the signed-in account's profile and the address awaiting confirmation. */
export const userProfileSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  marketingEmails: z.boolean(),
  /** A new address that waits for its confirmation link to be followed, or null. */
  pendingEmail: z.string().nullable(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/**
 * updateProfileResultSchema is the answer of PATCH /api/user/profile. `emailChangePending` is true when this
 * request mailed a confirmation link to a new address (mail configured): the email changes once it is followed.
 */
export const updateProfileResultSchema = z.object({
  profile: userProfileSchema,
  emailChangePending: z.boolean(),
});
export type UpdateProfileResult = z.infer<typeof updateProfileResultSchema>;

/** changePasswordSchema is the body of POST /api/user/change-password; the new password follows the sign-up rules. */
export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** changePasswordFormSchema is the Settings › Account password form: the request plus a matching confirmation. */
export const changePasswordFormSchema = changePasswordSchema
  .extend({
    confirmPassword: z
      .string({ error: 'Password must be at least 8 characters' })
      .min(AUTH_LIMITS.passwordMin, 'Password must be at least 8 characters'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ChangePasswordFormInput = z.infer<typeof changePasswordFormSchema>;

/** deleteAccountSchema is the body of DELETE /api/user: the account's username, typed to confirm. */
export const deleteAccountSchema = z.object({
  confirm: z.string({ error: 'Type your username to confirm' }).trim().min(1, 'Type your username to confirm'),
});
