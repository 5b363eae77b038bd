import { createDecipheriv } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { type Keyring, MasterKeyError, purposeKey } from '../../lib/crypto/master-key.js';
import { listConnectionSecrets, updateConnectionSecret } from './sql-connections.store.js';

// Connection secrets at rest. A database connection's string or details (password included) are stored only
// sealed by the instance's keyring (lib/crypto/master-key.ts), under a key derived for this purpose from the
// master key, bound to the connection's project (a row copied to another project does not open). During a master
// key rotation the values sealed under the previous key still open, and resealConnectionSecrets seals them again
// under the new one at start.
//
// Connections stored before the keyring sealed them are in an older format of their own
// (`v1.<key id>.<iv>.<tag>.<ciphertext>`): they still open, and are sealed again at start.

const PURPOSE = 'basalt sql connection secrets';
const LEGACY_PREFIX = 'v1.';

/** ConnectionSecretError is a sealed value that cannot be opened (another master key, or altered). */
export class ConnectionSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionSecretError';
  }
}

const associatedData = (projectId: string) => `project:${projectId}`;

/** sealConnectionSecret encrypts a connection's secret text for one project. */
export function sealConnectionSecret(keyring: Keyring, plaintext: string, projectId: string): string {
  return keyring.seal(PURPOSE, plaintext, associatedData(projectId));
}

/** openConnectionSecret decrypts a connection's secret for the same project, or throws ConnectionSecretError. */
export function openConnectionSecret(keyring: Keyring, sealed: string, projectId: string): string {
  try {
    if (sealed.startsWith(LEGACY_PREFIX)) return openLegacy(keyring, sealed, projectId);
    return keyring.open(PURPOSE, sealed, associatedData(projectId));
  } catch (error) {
    if (error instanceof MasterKeyError) throw new ConnectionSecretError(error.message);
    throw error;
  }
}

// The older format: AES-256-GCM under the purpose key of the master key whose id it names.
function openLegacy(keyring: Keyring, sealed: string, projectId: string): string {
  const [, keyId, iv, tag, ciphertext] = sealed.split('.');
  const master = [keyring.current, keyring.previous].find((candidate) => candidate?.id === keyId);
  if (!master || !iv || !tag || ciphertext === undefined) {
    throw new ConnectionSecretError('The connection secret was sealed with another master key');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', purposeKey(master.key, PURPOSE), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData(projectId)));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new ConnectionSecretError('The connection secret could not be opened');
  }
}

/**
 * resealConnectionSecrets seals again, under the current master key, every connection secret that is not (sealed
 * under the previous key, or in the older format); it returns how many. One that no key opens is left as it is:
 * its connection asks for its credentials again when used.
 */
export async function resealConnectionSecrets(db: Db, keyring: Keyring): Promise<number> {
  let count = 0;
  for (const row of await listConnectionSecrets(db.kysely)) {
    if (keyring.isCurrent(row.secret_sealed)) continue;
    let plaintext: string;
    try {
      plaintext = openConnectionSecret(keyring, row.secret_sealed, row.project_id);
    } catch {
      continue;
    }
    await updateConnectionSecret(db.kysely, row.id, sealConnectionSecret(keyring, plaintext, row.project_id));
    count++;
  }
  return count;
}
