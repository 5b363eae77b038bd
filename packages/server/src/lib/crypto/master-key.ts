import { createHash, hkdfSync } from 'node:crypto';
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
// key still wrapped by the old one is re-wrapped at start, and every value sealed under it sealed again (app.ts),
// and the old one can go.

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
  /**
   * seal encrypts a small value under a key derived from the current master key for one purpose (the purpose and
   * the associated data bind it to where it is stored), naming the master key in the text it returns.
   */
  seal(purpose: string, plaintext: string, associatedData: string): string;
  /** open decrypts what seal made, with the master key named in it (current or previous), or throws. */
  open(purpose: string, sealed: string, associatedData: string): string;
  /** isCurrent tells whether a sealed value was sealed under the current master key. */
  isCurrent(sealed: string): boolean;
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

/** purposeKey derives the key a master key seals one purpose's values with (HKDF-SHA256). */
export function purposeKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, KEY_BYTES));
}

// A value sealed for a purpose: `m1.<master key id>.<sealed text>` (envelope.ts's format after the prefix).
const SEALED_PREFIX = 'm1.';

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
  const masterOf = (masterKeyId: string, what: string): MasterKey => {
    const master = [current, previous].find((candidate) => candidate?.id === masterKeyId);
    if (!master) {
      throw new MasterKeyError(
        `${what} was encrypted under another master key (id ${masterKeyId}); start Basalt with that key in BASALT_MASTER_KEY, or with the new key in BASALT_MASTER_KEY and that one in BASALT_PREVIOUS_MASTER_KEY`,
      );
    }
    return master;
  };
  return {
    current,
    previous,
    seal: (purpose, plaintext, associatedData) =>
      `${SEALED_PREFIX}${current.id}.${seal(purposeKey(current.key, purpose), plaintext, associatedData)}`,
    open(purpose, sealed, associatedData) {
      const at = sealed.indexOf('.', SEALED_PREFIX.length);
      if (!sealed.startsWith(SEALED_PREFIX) || at === -1)
        throw new MasterKeyError('The value is not in a known format');
      const master = masterOf(sealed.slice(SEALED_PREFIX.length, at), 'This value');
      try {
        return open(purposeKey(master.key, purpose), sealed.slice(at + 1), associatedData).toString('utf8');
      } catch (error) {
        if (error instanceof DecryptionError) throw new MasterKeyError('The value could not be decrypted');
        throw error;
      }
    },
    isCurrent: (sealed) => sealed.startsWith(`${SEALED_PREFIX}${current.id}.`),
    wrap: (dataKey, accountId) => ({
      wrapped: seal(current.key, dataKey, wrapContext(accountId)),
      masterKeyId: current.id,
    }),
    unwrap(wrapped, masterKeyId, accountId) {
      const master = masterOf(masterKeyId, "This account's secrets");
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
