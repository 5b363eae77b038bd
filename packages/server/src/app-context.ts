import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { TokenService } from './features/auth/tokens.service.js';
import type { StripeBilling } from './features/billing/billing.service.js';
import type { UsageMeter } from './features/billing/usage-meter.js';
import type { LogWriter } from './features/logs/log-writer.js';

/** AppContext is what every feature is built from: made once in buildApp, passed to each feature's routes. */
export interface AppContext {
  config: Config;
  db: Db;
  tokens: TokenService;
  log: FastifyBaseLogger;
  /** logs stores Basalt's own log entries (requests, auth events, errors, jobs) for the Logs screens. */
  logs: LogWriter;
  /** usage counts API calls and answers whether an account is over its plan's caps; null with METERING=off. */
  usage: UsageMeter | null;
  /** stripe is Stripe's client and the operator's settings; null when billing by Stripe is off. */
  stripe: StripeBilling | null;
}
