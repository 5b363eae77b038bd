import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Authenticated encryption of small values (secrets, wrapped keys): AES-256-GCM with a fresh 96-bit nonce per
// value and associated data that binds the ciphertext to where it is stored. A ciphertext moved to another row, or
// opened under another name, fails to decrypt instead of yielding the value. One text format:
//   v1.<nonce>.<ciphertext>.<tag>   (base64url parts)

/** KEY_BYTES is the length of every key here: 256 bits. */
export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const VERSION = 'v1';

/** DecryptionError says a ciphertext could not be opened: a wrong key, wrong associated data, or tampering. */
export class DecryptionError extends Error {
  constructor(message = 'The value could not be decrypted with this key and associated data') {
    super(message);
    this.name = 'DecryptionError';
  }
}

/** generateKey returns a new random 256-bit key. */
export function generateKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** seal encrypts `plaintext` under `key`, bound to `associatedData`, as one line of text. */
export function seal(key: Buffer, plaintext: Buffer | string, associatedData: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [VERSION, nonce, body, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** open decrypts what seal made with the same key and associated data, or throws DecryptionError. */
export function open(key: Buffer, sealed: string, associatedData: string): Buffer {
  const [version, nonce, body, tag, extra] = sealed.split('.');
  if (version !== VERSION || nonce === undefined || body === undefined || tag === undefined || extra !== undefined) {
    throw new DecryptionError('The value is not in the v1 sealed format');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  } catch {
    throw new DecryptionError();
  }
}
