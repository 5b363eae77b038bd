import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { serverIdentity } from '../../db/server-identity.js';
import { dataDirStorage, type FileStorage } from '../../lib/storage/file-storage.js';
import { loadSecretKey, type SecretKey } from './connection-secrets.js';

/** SqlDeps are what SQL Execution's services need beyond the database: the secret key, file storage, own identity. */
export interface SqlDeps {
  secretKey: SecretKey;
  storage: FileStorage;
  /** ownIdentity names Basalt's own database (db/server-identity.ts), read once. */
  ownIdentity(): Promise<string | null>;
}

/** createSqlDeps builds SqlDeps from the instance's config: data-dir storage and the master key. */
export function createSqlDeps(db: Db, config: Pick<Config, 'dataDir' | 'masterKey'>): SqlDeps {
  let identity: Promise<string | null> | null = null;
  return {
    secretKey: loadSecretKey({ masterKey: config.masterKey, dataDir: config.dataDir }),
    storage: dataDirStorage(config.dataDir),
    ownIdentity: () => {
      identity ??= serverIdentity(db).catch(() => {
        identity = null;
        return null;
      });
      return identity;
    },
  };
}
