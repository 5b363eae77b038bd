import type { Plan } from '@basalt/shared';
import type { Config } from '../../config.js';
import { quotasEnforced } from '../../config-billing.js';
import type { Db } from '../../db/database.js';
import { serverIdentity } from '../../db/server-identity.js';
import type { Keyring } from '../../lib/crypto/master-key.js';
import { dataDirStorage, type FileStorage } from '../../lib/storage/file-storage.js';

/** SqlDeps are what SQL Execution's services need beyond the database: the keyring, file storage, own identity. */
export interface SqlDeps {
  /** keyring seals the connections' credentials (connection-secrets.ts). */
  keyring: Keyring;
  /** connectionPlans are the plans whose connection caps apply; null when quotas are not enforced (config.ts). */
  connectionPlans: Plan[] | null;
  storage: FileStorage;
  /** ownIdentity names Basalt's own database (db/server-identity.ts), read once. */
  ownIdentity(): Promise<string | null>;
}

/** createSqlDeps builds SqlDeps from the instance's config and keyring: data-dir storage and the plans. */
export function createSqlDeps(db: Db, config: Pick<Config, 'dataDir' | 'billing'>, keyring: Keyring): SqlDeps {
  let identity: Promise<string | null> | null = null;
  return {
    keyring,
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
