import { z } from 'zod';

// Secrets: values functions read with
// Deno.env.get(name). A list never carries values; GET /api/secrets/:id/value reveals one (recorded in activity).

/** SECRET_LIMITS follow Supabase's (docs "Edge Functions limits": 100 secrets, names to 256, values to 24,576). */
export const SECRET_LIMITS = {
  nameMax: 256,
  valueMax: 24_576,
  perAccount: 100,
  /** The masked value shows at most this many dots. */
  maskDots: 12,
  /** How long the copy button stays highlighted, in ms. */
  copyHighlightMs: 3000,
} as const;

/** RESERVED_SECRET_PREFIXES are names Basalt sets itself (SUPABASE_URL…) or that steer the runtime (DENO_…). */
export const RESERVED_SECRET_PREFIXES = ['SUPABASE_', 'DENO_'] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** createSecretSchema is the body of POST /api/secrets; a sent userId is ignored. */
export const createSecretSchema = z.object({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'Secret name is required' : 'Secret name must be text') })
    .trim()
    .min(1, 'Secret name is required')
    .max(SECRET_LIMITS.nameMax, `Secret name must be at most ${SECRET_LIMITS.nameMax} characters`)
    .regex(
      ENV_NAME,
      'Secret name must look like an environment variable: letters, numbers and _, not starting with a number',
    )
    .refine(
      (name) => !RESERVED_SECRET_PREFIXES.some((prefix) => name.toUpperCase().startsWith(prefix)),
      `Secret names cannot start with ${RESERVED_SECRET_PREFIXES.join(' or ')}: Basalt sets those itself`,
    ),
  value: z
    .string({
      error: (issue) => (issue.input === undefined ? 'Secret value is required' : 'Secret value must be text'),
    })
    .min(1, 'Secret value is required')
    .max(SECRET_LIMITS.valueMax, `Secret value must be at most ${SECRET_LIMITS.valueMax} characters`)
    .refine((value) => !value.includes('\u0000'), 'Secret value cannot contain NUL characters'),
  isEncrypted: z.boolean({ error: 'isEncrypted must be true or false' }).default(true),
});
export type CreateSecretInput = z.input<typeof createSecretSchema>;

/** secretSchema is a secret as GET /api/secrets lists it: never its value. */
export const secretSchema = z.object({
  id: z.number(),
  name: z.string(),
  isEncrypted: z.boolean(),
  createdAt: z.string(),
});
export type Secret = z.infer<typeof secretSchema>;

/** secretValueSchema is the answer of GET /api/secrets/:id/value. */
export const secretValueSchema = z.object({ value: z.string() });
export type SecretValue = z.infer<typeof secretValueSchema>;
