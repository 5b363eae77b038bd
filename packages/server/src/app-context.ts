import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Apps } from './features/apps/apps-config.js';
import type { AuthPools } from './features/auth/gateway/auth-gateway.js';
import type { TokenService } from './features/auth/sessions/tokens.service.js';
import type { BackupDeps } from './features/backups/backup-deps.js';
import type { StripeBilling } from './features/billing/billing.service.js';
import type { UsageMeter } from './features/billing/usage-meter.js';
import type { MeterSteps } from './features/billing/usage-metering.js';
import type { RuntimeHandle } from './features/functions/runtime/functions-runtime.js';
import type { DatabaseHealthService } from './features/health/database-health.service.js';
import type { InstanceSettingsService } from './features/instance/instance-settings.js';
import type { LogWriter } from './features/logs/log-writer.js';
import type { HealthRecorder } from './features/monitoring/health-history.js';
import type { Monitoring } from './features/monitoring/metrics-writer.js';
import type { SchemaRooms } from './features/projects/schema-room.js';
import type { KeyRateLimiter } from './features/public-api/public-api-rate-limit.js';
import type { RealtimeHub } from './features/realtime/realtime-hub.js';
import type { Vault } from './features/secrets/secrets-vault.js';
import type { Storage } from './features/storage/storage-context.js';
import type { Callers } from './http/caller.js';

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
  /** callers are the caller steps that open every route's admission (http/caller.ts). */
  callers: Callers;
  /** meter are the admission steps of the metered routes (features/billing/usage-metering.ts). */
  meter: MeterSteps;
  /** vault seals and opens secrets under each account's data key, wrapped by the master key. */
  vault: Vault;
  /** health measures the database (its probes are sampled by a background job). */
  health: DatabaseHealthService;
  /** monitoring counts the APIs' requests (GET /api/metrics) and feeds Prometheus (GET /metrics) when on. */
  monitoring: Monitoring;
  /** healthHistory takes the database's health snapshot each minute (GET /api/health/database/history). */
  healthHistory: HealthRecorder;
  /** functions is the edge functions' runtime, made on the first call (features/functions/runtime). */
  functions: RuntimeHandle;
  /** rooms are this node's Schema Editor rooms (the /ws socket). */
  rooms: SchemaRooms;
  /** realtime is this node's /realtime/v1 sockets and channels. */
  realtime: RealtimeHub;
  /** keyLimiter counts the public record API's requests per key and minute (API_RATE_LIMIT). */
  keyLimiter: KeyRateLimiter;
  /** instance holds the settings administrators change for the whole instance (console sign-ups, terms). */
  instance: InstanceSettingsService;
  /** storage is file storage's blob store, signer and bucket cache (features/storage). */
  storage: Storage;
  /** backups are what the instance's backups and restores run on, shared by their routes and jobs. */
  backups: BackupDeps;
  /** apps are the instance's part of every app and the lookup of apps by ref and key (features/apps). */
  apps: Apps;
  /** auth are the user pools' auth services: the console accounts' and each app's end users'. */
  auth: AuthPools;
}
