import { z } from 'zod';

/** AUTH_LIMITS holds the registration limits. */
export const AUTH_LIMITS = {
  usernameMin: 3,
  usernameMax: 50,
  emailMax: 100,
  passwordMin: 8,
  passwordMax: 100,
} as const;

const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const SPECIAL_CHARACTER = /[^A-Za-z0-9]/;

/** passwordRules lists each character-class rule with its message and its checklist label. */
export const passwordRules = [
  {
    id: 'length',
    label: 'At least 8 characters',
    message: 'Password must be at least 8 characters',
    test: (p: string) => p.length >= AUTH_LIMITS.passwordMin,
  },
  {
    id: 'uppercase',
    label: 'At least 1 uppercase letter',
    message: 'Password must contain at least one uppercase letter',
    test: (p: string) => /[A-Z]/.test(p),
  },
  {
    id: 'lowercase',
    label: 'At least 1 lowercase letter',
    message: 'Password must contain at least one lowercase letter',
    test: (p: string) => /[a-z]/.test(p),
  },
  {
    id: 'number',
    label: 'At least 1 number',
    message: 'Password must contain at least one number',
    test: (p: string) => /[0-9]/.test(p),
  },
  {
    id: 'special',
    label: 'At least 1 special character',
    message: 'Password must contain at least one special character',
    test: (p: string) => SPECIAL_CHARACTER.test(p),
  },
] as const;

/** passwordPolicyFailures returns the messages of every password rule the password breaks. */
export function passwordPolicyFailures(password: string): string[] {
  const failures: string[] = passwordRules.filter((r) => !r.test(password)).map((r) => r.message);
  if (password.length > AUTH_LIMITS.passwordMax) failures.push('Password is too long');
  return failures;
}

/** passwordSchema enforces the registration password policy with its messages. */
export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(AUTH_LIMITS.passwordMin, 'Password must be at least 8 characters')
  .max(AUTH_LIMITS.passwordMax, 'Password is too long')
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number')
  .regex(SPECIAL_CHARACTER, 'Password must contain at least one special character');

/** usernameSchema is the registration rule for usernames. */
export const usernameSchema = z
  .string({ error: 'Username is required' })
  .min(AUTH_LIMITS.usernameMin, 'Username must be at least 3 characters')
  .max(AUTH_LIMITS.usernameMax, 'Username cannot exceed 50 characters')
  .regex(USERNAME_PATTERN, 'Username can only contain letters, numbers, underscores and hyphens');

/** emailSchema is a valid email of at most 100 characters. */
export const emailSchema = z
  .string({ error: 'Please enter a valid email' })
  .trim()
  .max(AUTH_LIMITS.emailMax, 'Email cannot exceed 100 characters')
  .pipe(z.email('Please enter a valid email'));

/** loginSchema is the console's login form. */
export const loginSchema = z.object({
  email: z.email('Please enter a valid email'),
  password: z.string().min(AUTH_LIMITS.passwordMin, 'Password must be at least 8 characters'),
  rememberMe: z.boolean().default(false),
});

/** registerRequestSchema is what POST /api/auth/register accepts. */
export const registerRequestSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** loginRequestSchema is what POST /api/auth/login accepts. */
export const loginRequestSchema = z.object({
  email: z.string({ error: 'Please enter a valid email' }).trim().pipe(z.email('Please enter a valid email')),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** registerFormSchema is the console's register form: the request plus confirmation and terms. */
export const registerFormSchema = registerRequestSchema
  .extend({
    confirmPassword: z.string().min(1, 'Please confirm your password'),
    acceptTerms: z.boolean().refine((v) => v, 'You must accept the terms and conditions'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

/** PasswordStrength is the meter's score (0–100) and its band label. */
export interface PasswordStrength {
  score: number;
  label: 'Very weak password' | 'Weak password' | 'Medium strength password' | 'Strong password';
}

/** passwordStrength scores a password: length and the kinds of characters it mixes. */
export function passwordStrength(password: string): PasswordStrength {
  let score = Math.min(25, (password.length / 8) * 25);
  for (const re of [/[A-Z]/, /[a-z]/, /[0-9]/, SPECIAL_CHARACTER]) if (re.test(password)) score += 15;
  if (/(.)\1{3}/.test(password)) score -= 15;
  score = Math.max(0, Math.min(100, score));
  const label =
    score < 25
      ? 'Very weak password'
      : score < 50
        ? 'Weak password'
        : score < 75
          ? 'Medium strength password'
          : 'Strong password';
  return { score, label };
}
