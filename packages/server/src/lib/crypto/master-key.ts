import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DecryptionError, generateKey, KEY_BYTES, open, seal } from './envelope.js';

// The master key wraps every account's data key (envelope encryption): secrets are sealed under the account's
// data key, and the database holds that key only sealed under the master key, which never enters the database.
// The master key comes from BASALT_MASTER_KEY (32 bytes, base64 or hex), else from `master.key` in the data
// directory, written once with mode 0600. Whoever has the database and not the key has ciphertext only, so the
// key must be backed up apart from the data: without it no encrypted secret can be read again.
//
// Rotation: start with the new key in BASALT_MASTER_KEY and the old one in BASALT_PREVIOUS_MASTER_KEY; every data
// key still wrapped by the old one is re-wrapped at start (features/secrets/data-keys.ts), and the old one can go.

/** MASTER_KEY_FILE is the file name of the generated master key inside the data directory. */
export const MASTER_KEY_FILE = 'master.key';

/** MasterKey is one master key and its id (a fingerprint, stored beside what it wrapped). */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** Keyring is the current master key and, during a rotation, the previous one. */
export interface Keyring {
  current: MasterKey;
  previous: MasterKey | null;
  /** wrap seals a data key under the current master key for one account. */
  wrap(dataKey: Buffer, accountId: string): { wrapped: string; masterKeyId: string };
  /** unwrap opens a data key with the master key that wrapped it, or throws a MasterKeyError. */
  unwrap(wrapped: string, masterKeyId: string, accountId: string): Buffer;
}

/** MasterKeyError explains a master key that is malformed, missing or not the one that wrapped a data key. */
export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MasterKeyError';
  }
}

const fingerprint = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** parseMasterKey reads a 32-byte key written as base64 (44 characters) or hex (64). */
export function parseMasterKey(text: string, source: string): MasterKey {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && key.toString('base64') !== trimmed)) {
    throw new MasterKeyError(
      `${source} must be ${KEY_BYTES} random bytes written as base64 (44 characters) or hex (64); make one with: openssl rand -base64 32`,
    );
  }
  return { id: fingerprint(key), key };
}

// The generated key: created once with mode 0600 ('wx' fails when another process made it first, then it is read).
function keyFromDataDir(dataDir: string): MasterKey {
  const file = path.join(dataDir, MASTER_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${generateKey().toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseMasterKey(fs.readFileSync(file, 'utf8'), file);
}

const wrapContext = (accountId: string) => `basalt account data key\u0000${accountId}`;

/** loadKeyring reads the master key (and the previous one, while rotating) from the configuration or the data dir. */
export function loadKeyring(options: {
  masterKey: string | null;
  previousMasterKey: string | null;
  dataDir: string;
}): Keyring {
  const current = options.masterKey
    ? parseMasterKey(options.masterKey, 'BASALT_MASTER_KEY')
    : keyFromDataDir(options.dataDir);
  const previous = options.previousMasterKey
    ? parseMasterKey(options.previousMasterKey, 'BASALT_PREVIOUS_MASTER_KEY')
    : null;
  return {
    current,
    previous,
    wrap: (dataKey, accountId) => ({
      wrapped: seal(current.key, dataKey, wrapContext(accountId)),
      masterKeyId: current.id,
    }),
    unwrap(wrapped, masterKeyId, accountId) {
      const master = [current, previous].find((candidate) => candidate?.id === masterKeyId);
      if (!master) {
        throw new MasterKeyError(
          `This account's secrets were encrypted under another master key (id ${masterKeyId}); start Basalt with that key in BASALT_MASTER_KEY, or with the new key in BASALT_MASTER_KEY and that one in BASALT_PREVIOUS_MASTER_KEY`,
        );
      }
      try {
        return open(master.key, wrapped, wrapContext(accountId));
      } catch (error) {
        if (error instanceof DecryptionError)
          throw new MasterKeyError(`The data key of account ${accountId} is damaged`);
        throw error;
      }
    },
  };
}
