// The backups' query keys. Imports nothing.

/** backupKeys are the instance backups' queries (administrators). */
export const backupKeys = {
  list: ['/api/backups'] as const,
  schedule: ['/api/backups/schedule'] as const,
};
