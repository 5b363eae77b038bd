import { type AccountRow, createAccount, findAccount, normalizeEmail, updateAccount } from './accounts.service.js';
import { countAccounts, deleteAccountRow, findAccountByEmail, listAccountsPage } from './accounts.store.js';
import { CONSOLE_TABLES, type PoolSettings, type UserPool, type UserRegistry } from './user-pool.js';
import './session-events.js';

/** consoleUsers are the console accounts as user creation needs them (`basalt create-admin` makes one with it). */
export const consoleUsers: UserRegistry<AccountRow> = {
  app: null,
  users: {
    findById: (db, id) => findAccount(db, id),
    findByEmail: (db, email) => findAccountByEmail(db, normalizeEmail(email)),
    create: (db, input, now) => createAccount(db, input, now),
    update: (db, id, changes, now) => updateAccount(db, id, changes, now),
    remove: (db, id) => deleteAccountRow(db, id),
    listPage: (db, page) => listAccountsPage(db, page),
    count: (db, search) => countAccounts(db, search),
  },
  tables: CONSOLE_TABLES,
  activityAccountOf: (user) => user.id,
  identityScope: '',
};

/** consoleUserPool is the pool of the instance's console accounts (the `accounts` table). */
export function consoleUserPool(settings: PoolSettings): UserPool<AccountRow> {
  return {
    ...consoleUsers,
    settings,
    sessionsEnded: (scope, userId) => scope.publish('sessions.ended', { accountId: userId }),
    otpSalt: '',
    vaultAccountOf: (userId) => userId,
  };
}
