import { z } from 'zod';

/** API_KEY_LIMITS are the limits of API keys. */
const API_KEY_LIMITS = {
  nameMax: 100,
} as const;

/** API_KEY_PREFIX starts every API key's secret, so that a key is recognisable in code and in leak scanners. */
export const API_KEY_PREFIX = 'bsk_';

/** createApiKeySchema is the body of POST /api/keys: a name, non-blank once trimmed. */
export const createApiKeySchema = z.object({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'Name is required' : 'Name must be text') })
    .trim()
    .min(1, 'Name is required')
    .max(API_KEY_LIMITS.nameMax, `Name must be at most ${API_KEY_LIMITS.nameMax} characters`),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

/** apiKeySchema is a key as GET /api/keys lists it: never its secret, only a short prefix to tell keys apart. */
export const apiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** createdApiKeySchema is the answer of POST /api/keys: the secret `key`, shown this once and never again. */
export const createdApiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
