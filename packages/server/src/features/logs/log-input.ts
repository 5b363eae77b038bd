import type { LogLevel, LogSource } from '@basalt/shared';

/** LogInput is one entry to log. Never put a secret in it; the writer also masks what looks like one. */
export interface LogInput {
  level: LogLevel;
  source: LogSource;
  message: string;
  /** The request's path, without its query string. */
  path?: string | null;
  /** The account the entry belongs to (it sees the entry); null or absent: administrators only. */
  accountId?: string | null;
  context?: Record<string, unknown>;
  /** When it happened, in ms since the epoch; now when absent. */
  at?: number;
}
