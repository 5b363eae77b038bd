import type { Generated } from 'kysely';

// The instance's own: settings made at first start, shared rate-limit counters, the system log.
// Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that stores read the same values from
// SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

/** InstanceSettingsTable holds instance-wide values created at first start. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/** RateLimitsTable holds fixed-window counters shared by every server process. */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** SystemLogsTable holds Basalt's own log: requests, auth events, unexpected errors, background jobs (features/logs). */
export interface SystemLogsTable {
  id: Generated<number>;
  created_at: string;
  /** debug, info, warn or error. */
  level: string;
  /** api, auth or jobs (the logs page's service). */
  source: string;
  message: string;
  /** The request's path without its query string, when the entry is about a request. */
  path: string | null;
  /** The account whose request it was; null for entries only an administrator sees. */
  account_id: string | null;
  /** JSON object of facts about the entry (method, status, duration…), never secrets. */
  context: string;
}
