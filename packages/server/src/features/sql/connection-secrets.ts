import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Connection secrets at rest. A database connection's string or details (password included) are stored only
// sealed with AES-256-GCM, under a key derived (HKDF-SHA256, info "basalt sql connection secrets") from the
// instance's master key: BASALT_MASTER_KEY (32 bytes as base64 or hex) or, when unset, `master.key` in the data
// directory, generated once with mode 0600. Each sealed value is bound to its project (GCM's additional data),
// so a row copied to another project does not open.
//
// This is the one place SQL Execution encrypts. It uses the same master key source and file as the secrets
// area's envelope encryption (lib/crypto), so that once that module is on main, these two functions can call it
// instead and nothing else changes. Format: `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts).

/** MASTER_KEY_FILE is the generated master key's file name in the data directory. */
const MASTER_KEY_FILE = 'master.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** SecretKey is the key connection secrets are sealed with, and a short id of the master key it came from. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** ConnectionSecretError is a sealed value that cannot be opened (another master key, or altered). */
export class ConnectionSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionSecretError';
  }
}

function parseMasterKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const hex = /^[0-9a-fA-F]{64}$/.test(trimmed);
  const key = hex ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES || (!hex && key.toString('base64') !== trimmed)) {
    throw new Error(
      `${source} must be 32 random bytes written as base64 or hex; make one with: openssl rand -base64 32`,
    );
  }
  return key;
}

function masterKeyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, MASTER_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseMasterKey(fs.readFileSync(file, 'utf8'), file);
}

/** loadSecretKey derives the connection-secret key from BASALT_MASTER_KEY or the data directory's master.key. */
export function loadSecretKey(options: { masterKey: string | null; dataDir: string }): SecretKey {
  const master = options.masterKey
    ? parseMasterKey(options.masterKey, 'BASALT_MASTER_KEY')
    : masterKeyFromDataDir(options.dataDir);
  const key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'basalt sql connection secrets', KEY_BYTES));
  return { id: createHash('sha256').update(master).digest('hex').slice(0, 16), key };
}

/** sealConnectionSecret encrypts a connection's secret text for one project. */
export function sealConnectionSecret(key: SecretKey, plaintext: string, projectId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(`project:${projectId}`));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return ['v1', key.id, ...parts].join('.');
}

/** openConnectionSecret decrypts what sealConnectionSecret made for the same project, or throws ConnectionSecretError. */
export function openConnectionSecret(key: SecretKey, sealed: string, projectId: string): string {
  const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) {
    throw new ConnectionSecretError('The connection secret is not in a known format');
  }
  if (keyId !== key.id) {
    throw new ConnectionSecretError('The connection secret was sealed with another master key');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`project:${projectId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new ConnectionSecretError('The connection secret could not be opened');
  }
}
