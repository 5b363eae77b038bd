import type { Plan } from '@basalt/shared';
import { type Config, quotasEnforced } from '../../config.js';
import type { Db } from '../../db/database.js';
import { serverIdentity } from '../../db/server-identity.js';
import { dataDirStorage, type FileStorage } from '../../lib/storage/file-storage.js';
import { loadSecretKey, type SecretKey } from './connection-secrets.js';

/** SqlDeps are what SQL Execution's services need beyond the database: the secret key, file storage, own identity. */
export interface SqlDeps {
  secretKey: SecretKey;
  /** connectionPlans are the plans whose connection caps apply; null when quotas are not enforced (config.ts). */
  connectionPlans: Plan[] | null;
  storage: FileStorage;
  /** ownIdentity names Basalt's own database (db/server-identity.ts), read once. */
  ownIdentity(): Promise<string | null>;
}

/** createSqlDeps builds SqlDeps from the instance's config: data-dir storage, the master key and the plans. */
export function createSqlDeps(db: Db, config: Pick<Config, 'dataDir' | 'masterKey' | 'billing'>): SqlDeps {
  let identity: Promise<string | null> | null = null;
  return {
    secretKey: loadSecretKey({ masterKey: config.masterKey, dataDir: config.dataDir }),
    connectionPlans: quotasEnforced(config.billing) ? config.billing.plans : null,
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
