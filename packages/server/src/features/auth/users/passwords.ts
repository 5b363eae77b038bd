import { appPasswordFailures, type PasswordPolicy, passwordPolicyFailures, passwordRules } from '@basalt/shared';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's recommended minimum: 19 MiB, 2 passes.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** hashPassword hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | null = null;

/**
 * verifyPassword checks a password against a stored hash. Without a hash (unknown email, account without
 * password) it still spends the time of one verification, so answers do not reveal which accounts exist.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

/** PasswordWeakness is GoTrue's description of a password that breaks the policy. */
export interface PasswordWeakness {
  /** Subset of `length` and `characters` (GoTrue's reasons). */
  reasons: Array<'length' | 'characters'>;
  /** One sentence per failed rule. */
  message: string;
}

const LENGTH_MESSAGES = new Set<string>([
  passwordRules.find((r) => r.id === 'length')?.message ?? '',
  'Password is too long',
]);

/**
 * passwordWeakness checks a password against an app's policy, or, without one (console accounts), the shared
 * registration policy; null when the password meets it.
 */
export function passwordWeakness(password: string, policy: PasswordPolicy | null = null): PasswordWeakness | null {
  if (policy) {
    const failure = appPasswordFailures(password, policy);
    return failure && { reasons: failure.reasons, message: failure.messages.join(' ') };
  }
  const failures = passwordPolicyFailures(password);
  if (failures.length === 0) return null;
  const reasons: PasswordWeakness['reasons'] = [];
  if (failures.some((f) => LENGTH_MESSAGES.has(f))) reasons.push('length');
  if (failures.some((f) => !LENGTH_MESSAGES.has(f))) reasons.push('characters');
  return { reasons, message: failures.map((f) => `${f}.`).join(' ') };
}
