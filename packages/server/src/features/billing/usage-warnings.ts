import type { Usage, UsageMetric } from '@basalt/shared';
import { USAGE_METRICS, usagePercent } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { findBillingRow } from './billing.store.js';
import { insertNotificationOnce } from './notifications.store.js';
import { limitOf } from './usage.service.js';

// Warnings when an account reaches 80 % and 100 % of a cap: a notification in the console's bell menu, and a mail
// when SMTP is configured. Each is given once per account, metric, threshold and period: the notification's key
// is unique in the database, so however many nodes notice at once, one of them stores it and only that one mails.

const THRESHOLDS = [100, 80] as const;

const LABELS: Record<UsageMetric, string> = {
  apiCalls: 'API calls',
  storageMb: 'storage',
  computeMinutes: 'compute minutes',
  databaseConnections: 'database connections',
};

/** UsageWarnings hears fresh usage readings and gives the warnings they call for. */
export interface UsageWarnings {
  check(accountId: string, usage: Usage): void;
}

/** createUsageWarnings gives warnings through the database's notifications and, with SMTP, the mailer. */
export function createUsageWarnings(
  db: Db,
  options: { mailer: Mailer | null; siteUrl: string; onError?: (error: unknown) => void },
): UsageWarnings {
  // Keys this process has already stored or seen stored: no second insert is tried for them.
  const given = new Set<string>();

  async function give(accountId: string, usage: Usage, metric: UsageMetric, threshold: number): Promise<void> {
    const key = `usage:${metric}:${threshold}:${usage.periodStart}`;
    if (given.has(`${accountId}\u0000${key}`)) return;
    given.add(`${accountId}\u0000${key}`);
    const limit = limitOf(usage, metric);
    const title = threshold >= 100 ? `${LABELS[metric]} limit reached` : `${threshold}% of ${LABELS[metric]} used`;
    const message =
      threshold >= 100
        ? `Your plan’s ${LABELS[metric]} limit (${limit}) is used up for this billing period. Upgrade your plan to continue.`
        : `You have used ${threshold}% of your plan’s ${LABELS[metric]} (${usage[metric]} of ${limit}) this billing period.`;
    const stored = await insertNotificationOnce(db, {
      accountId,
      dedupeKey: key,
      title: title[0]?.toUpperCase() + title.slice(1),
      message,
    });
    if (!stored || !options.mailer?.delivers) return;
    const account = await findBillingRow(db, accountId);
    if (!account) return;
    const link = `${options.siteUrl}/billing`;
    await options.mailer.send({
      to: account.email,
      subject: `Basalt: ${title}`,
      text: `${message}\n\nSee your usage: ${link}\n`,
      link,
    });
  }

  return {
    check(accountId, usage) {
      for (const metric of USAGE_METRICS) {
        const percent = usagePercent(usage[metric], limitOf(usage, metric));
        const threshold = THRESHOLDS.find((t) => percent >= t);
        if (threshold === undefined) continue;
        give(accountId, usage, metric, threshold).catch((error: unknown) => options.onError?.(error));
      }
    },
  };
}
