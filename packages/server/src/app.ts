import http from 'node:http';
import os from 'node:os';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import proxyAddr from '@fastify/proxy-addr';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import type { AppContext } from './app-context.js';
import { backgroundJobs } from './app-jobs.js';
import { routeTable } from './app-routes.js';
import type { Config } from './config.js';
import { quotasEnforced } from './config-billing.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { accountFactsOf } from './features/account/account-facts.js';
import { createAuth } from './features/apps/app-user-pool.js';
import { appOwnerOf, matchAppKey } from './features/apps/apps.service.js';
import { createApps } from './features/apps/apps-config.js';
import { secretSealerOf } from './features/auth/auth-deps.js';
import { endUserSessionLivenessOf, sessionLivenessOf } from './features/auth/sessions/session-liveness.js';
import { findSessionByCookieHash } from './features/auth/sessions/sessions.store.js';
import { tokenIssuerOf } from './features/auth/sessions/token-issuer.js';
import { createTokenService } from './features/auth/sessions/tokens.service.js';
import { secondFactorOf } from './features/auth/users/second-factor.js';
import { createBackupDeps } from './features/backups/backup-deps.js';
import { installRestoreGuard } from './features/backups/restore-guard.js';
import { stripeClientOf } from './features/billing/stripe-client.js';
import { createUsageMeter } from './features/billing/usage-meter.js';
import { meterSteps } from './features/billing/usage-metering.js';
import { createUsageWarnings } from './features/billing/usage-warnings.js';
import { createRuntimeHandle } from './features/functions/runtime/functions-runtime.js';
import { createDatabaseHealth } from './features/health/database-health.service.js';
import { instanceSettingsOf } from './features/instance/instance-settings.js';
import { apiKeyLookupOf } from './features/keys/keys.lookup.js';
import { recordUnexpectedError } from './features/logs/log-events.js';
import { createLogWriter } from './features/logs/log-writer.js';
import { createRequestLog } from './features/logs/request-log.js';
import { createHealthRecorder } from './features/monitoring/health-history.js';
import { createMonitoring } from './features/monitoring/metrics-writer.js';
import { createPrometheus } from './features/monitoring/prometheus.js';
import { createSchemaRooms } from './features/projects/schema-room.js';
import { createKeyRateLimiter } from './features/public-api/public-api-rate-limit.js';
import { createRealtimeHub } from './features/realtime/realtime-hub.js';
import { createVault, rewrapDataKeys } from './features/secrets/secrets-vault.js';
import { resealConnectionSecrets } from './features/sql/connection-secrets.js';
import { storageArchivePart } from './features/storage/storage-archive.js';
import { createStorage } from './features/storage/storage-context.js';
import {
  apiHeadersFor,
  CORS_EXPOSED_HEADERS,
  contentSecurityPolicy,
  installAnswerHeaders,
} from './http/api-headers.js';
import { createCallers } from './http/caller.js';
import { createCsrfTokens } from './http/csrf.js';
import { installErrorHandler } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installNotFound } from './http/not-found.js';
import { installNulGuard } from './http/nul-guard.js';
import { createPrincipalResolver } from './http/principal.js';
import { publicSiteUrl } from './http/public-origin.js';
import { requestIdOf } from './http/request-id.js';
import { requestTimeouts } from './http/request-timeout.js';
import { createEarlyRunner, type EarlyRunner } from './http/routes/early-runner.js';
import { installRouteTable, mountRoutes } from './http/routes/mount.js';
import type { Route } from './http/routes/route.js';
import { consoleIndexHtml, inlineScriptHashes, serveConsole } from './http/static-console.js';
import { loadKeyring } from './lib/crypto/master-key.js';
import { startJobs } from './lib/jobs/job.js';
import { createMailer, mailFromAddress } from './lib/mail/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** basalt is the instance's context (config, database, keys); tests read the keys from it. */
    basalt: AppContext;
    /** earlyRunner answers the early routes before Fastify (tests count its answers). */
    earlyRunner: EarlyRunner;
    /** routes is the route table as mounted (the API fuzz test sends to every route of it). */
    routes: readonly Route[];
  }
}

// Headers supabase-js sends and reads.
const CORS_ALLOWED_HEADERS = [
  'authorization',
  'apikey',
  'content-type',
  'x-client-info',
  'x-supabase-api-version',
  'prefer',
  'accept',
  'accept-profile',
  'content-profile',
  'range',
  'range-unit',
  'x-retry-count',
  'traceparent',
  'tracestate',
  'baggage',
  'x-csrf-token',
  'x-upsert',
  'cache-control',
].join(', ');

// Preflights are @fastify/cors's to answer; every other answer's CORS headers are written with the rest of the
// API's headers (http/api-headers.ts), for both paths.
const preflightsOnly = (corsOrigins: string[]) => {
  const options = {
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 86400,
    origin: corsOrigins.includes('*') ? '*' : corsOrigins,
  };
  const none = { ...options, origin: false };
  return () => (request: FastifyRequest, done: (error: Error | null, chosen: typeof options | typeof none) => void) =>
    done(null, request.method === 'OPTIONS' ? options : none);
};

const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** buildApp opens and migrates the database, loads the signing keys and mounts the route table. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const early = createEarlyRunner();
  const httpOptions = requestTimeouts(config.requestTimeoutSeconds);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers.apikey'],
      // Lines are buffered and written asynchronously, 4 KiB at a time and at least every 250 ms: a synchronous
      // write per line cost as much as a whole get-by-id. pino flushes what is pending when the process exits.
      ...(config.logLevel === 'silent'
        ? {}
        : { stream: pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 }) }),
    },
    bodyLimit: config.bodyLimit,
    // A request (headers and body) that has not arrived within the timeout gets 408 and its connection is closed
    // (http/request-timeout.ts); the time to answer is not limited.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    serverFactory: (handler) => {
      const server = http.createServer(httpOptions, early.handlerOf(handler));
      // Fastify's default, which it sets on a server it makes itself.
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      return server;
    },
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Fastify's two lines per request are replaced by the request log's one (features/logs/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => requestIdOf(req.headers),
    routerOptions: { ignoreTrailingSlash: true },
    // Behind a reverse proxy, per-IP limits and logs need the client's address from X-Forwarded-For.
    trustProxy: config.trustProxy,
  });

  const db = openDatabase(config, {
    onIdleError: (error) => app.log.warn({ err: error }, 'database connection dropped; the pool will reconnect'),
    onBusError: (error) => app.log.warn({ err: error }, 'event bus: an event could not be delivered or sent'),
  });
  app.addHook('onClose', () => db.close());
  try {
    await migrateToLatest(db);
  } catch (error) {
    await app.close();
    throw error;
  }
  // The nodes of one database issue tokens as one URL (features/auth/sessions/token-issuer.ts).
  const issuer = await tokenIssuerOf(db.kysely, config);
  if (issuer.changed) app.log.warn(issuer.changed);
  const tokens = await createTokenService(db.kysely, { issuer: issuer.issuer });
  // Basalt's own log, stored in batches off the requests' path (features/logs); it closes, storing what is
  // queued, before the database does (onClose hooks run last-added first).
  const logs = createLogWriter(db, { onError: (error) => app.log.warn({ err: error }, 'could not store log entries') });
  // API calls are metered off the requests' path too (features/billing); the meter stores its counts before the
  // database closes. Warnings at 80 % and 100 % of a cap become notifications, and mails with SMTP.
  const warnings = createUsageWarnings(db, {
    mailer: config.smtpUrl
      ? createMailer({
          smtpUrl: config.smtpUrl,
          from: config.smtpFrom ?? mailFromAddress('Basalt', config.siteUrl),
          log: app.log,
        })
      : null,
    siteUrl: config.siteUrl,
    onError: (error) => app.log.warn({ err: error }, 'could not give a usage warning'),
  });
  const usage = config.billing.metering
    ? createUsageMeter(db, {
        plans: config.billing.plans,
        enforce: quotasEnforced(config.billing),
        refreshMs: config.billing.meteringRefreshMs,
        onUsage: (accountId, reading) => warnings.check(accountId, reading),
        onError: (error) => app.log.warn({ err: error }, 'could not store or read usage'),
      })
    : null;
  const keyLimiter = createKeyRateLimiter(db.kysely, {
    limit: config.apiRateLimit,
    onFlushError: (error) => app.log.warn({ err: error }, 'could not flush API rate-limit counters'),
  });
  // Secrets are sealed under each account's data key, wrapped by the master key; mid-rotation every data key the
  // previous master key wrapped is wrapped again under the new one, and so is every SQL connection's credentials
  // (docs/operations.md).
  const vault = createVault(loadKeyring(config));
  if (vault.keyring.previous) {
    const count = await rewrapDataKeys(db, vault.keyring);
    app.log.info({ count }, 'secrets: re-wrapped data keys under the new master key');
  }
  const resealed = await resealConnectionSecrets(db, vault.keyring);
  if (resealed > 0)
    app.log.info({ count: resealed }, 'SQL connections: credentials sealed under the current master key');
  const stripeConfig = config.billing.stripe;
  const stripe = stripeConfig ? { client: stripeClientOf(stripeConfig), config: stripeConfig } : null;

  const apiKeys = apiKeyLookupOf(db);
  const sessions = sessionLivenessOf(db);
  const endUserSessions = endUserSessionLivenessOf(db);
  const secondFactor = secondFactorOf(db);
  const accountFacts = accountFactsOf(db);
  const csrf = await createCsrfTokens(db.kysely);
  // Apps sign their keys with the instance's key and confirm sign-ups by mail when SMTP is set; their OAuth
  // client secrets are sealed by the secrets vault under each account's data key.
  const apps = createApps(db, {
    tokens,
    mailDelivers: config.smtpUrl !== null,
    // Without SITE_URL, the address of the request that asks (http/public-origin.ts): one app URL everywhere.
    get siteUrl() {
      return publicSiteUrl(config);
    },
    secrets: secretSealerOf({ vault }),
  });
  const resolver = createPrincipalResolver({
    tokens,
    csrf,
    findCookieSession: (hash) => findSessionByCookieHash(db.kysely, hash),
    findApiKey: (secret) => apiKeys.resolve(secret),
    isSessionLive: (sessionId, accountId) => sessions.isLive(sessionId, accountId),
    matchAppKey: (key) => matchAppKey(apps, key),
    appOwnerOf: (ref) => appOwnerOf(apps, ref),
    isEndUserSessionLive: (sessionId, userId) => endUserSessions.isLive(sessionId, userId),
    needsSecondFactor: (accountId) => secondFactor.needed(accountId),
  });
  const callers = createCallers({ resolver, isAdmin: (accountId) => accountFacts.isAdmin(accountId) });
  const instance = instanceSettingsOf(db);
  const storage = createStorage(db, config);
  const auth = await createAuth({ db, config, tokens, log: app.log, logs, vault, instance }, apps);
  app.addHook('onClose', () => auth.console.mailer.close());
  const ctx: AppContext = {
    config,
    db,
    tokens,
    log: app.log,
    logs,
    usage,
    stripe,
    callers,
    meter: meterSteps(usage),
    keyLimiter,
    vault,
    health: createDatabaseHealth(db),
    monitoring: createMonitoring(db, {
      countRequests: config.requestMetrics,
      prometheus: config.metricsToken === null ? null : createPrometheus(db),
      onError: (error) => app.log.warn({ err: error }, 'request metrics could not be stored; tried again later'),
    }),
    healthHistory: createHealthRecorder(db, config.dataDir, `${os.hostname()}:${process.pid}`),
    instance,
    functions: createRuntimeHandle({ app, db, config, logs, log: app.log, vault, apps }),
    rooms: createSchemaRooms(db, {
      onError: (error) => app.log.warn({ err: error }, 'schema editor room: an update could not be handled'),
    }),
    realtime: createRealtimeHub(db, callers, config.realtime, (error) =>
      app.log.warn({ err: error }, 'realtime: a change could not be delivered'),
    ),
    storage,
    // Stored files are a part of an instance backup (features/storage/storage-archive.ts).
    backups: createBackupDeps({ db, config, log: app.log, logs }, [storageArchivePart(storage)]),
    apps,
    auth,
  };
  app.decorate('basalt', ctx);
  app.decorate('earlyRunner', early);

  const requestLog = createRequestLog({
    log: app.log,
    logs,
    logLevel: config.logLevel,
    stored: { everyRequest: config.logRequests === 'all' },
    observers: ctx.monitoring.observing ? [ctx.monitoring.observe] : [],
  });
  app.addHook('onResponse', (request, reply, done) => {
    requestLog.fastify(request, reply);
    done();
  });

  const indexHtml = consoleIndexHtml(config.consoleDir);
  const apiHeaders = apiHeadersFor(config.corsOrigins);
  installAnswerHeaders(app, { apiHeaders, csp: contentSecurityPolicy(indexHtml ? inlineScriptHashes(indexHtml) : []) });
  await app.register(fastifyCors, preflightsOnly(config.corsOrigins));
  // Cookies are parsed where they are read (http/principal.ts), not on every request.
  await app.register(fastifyCookie, { hook: false });
  // A Schema Editor frame may carry a layout of up to PROJECT_LIMITS.layoutMaxBytes (larger ones get an error
  // message from the room); only frames past this are cut off by ws itself (close 1009).
  await app.register(fastifyWebsocket, { options: { maxPayload: 2 * 1024 * 1024 } });
  // Multipart bodies are read by the routes that take uploads, each with its own limits (`request.parts`).
  await app.register(fastifyMultipart);
  installJsonBodyParser(app);
  installNulGuard(app);
  // While a restore runs on any node, writes are refused with 503 (features/backups/restore-guard.ts).
  installRestoreGuard(app, db);
  installErrorHandler(app, config.bodyLimit, (request, error) => recordUnexpectedError(logs, request, error));

  // Every route of Basalt, in one table (app-routes.ts), mounted on Fastify and known to the early runner.
  installRouteTable(app);
  const routes = routeTable(ctx, { csrf });
  app.decorate('routes', routes);
  mountRoutes(app, routes);
  early.add(routes);

  if (config.consoleDir && indexHtml) await serveConsole(app, config.consoleDir);
  installNotFound(app, indexHtml);

  // A closing server answers 503 to new requests: Fastify's to answer.
  app.addHook('preClose', (done) => {
    early.stop();
    done();
  });
  // Background work runs once the server is ready; it stops, storing what is buffered, before the database closes.
  let stopJobs = async () => {};
  app.addHook('onClose', () => stopJobs());
  await app.ready();
  stopJobs = startJobs(backgroundJobs(ctx));
  if (config.fastReads) {
    const trust = config.trustProxy;
    // Fastify's own reading of TRUST_PROXY, for the early runner's `call.ip`.
    const trusted = trust === false ? null : trust === true ? () => true : proxyAddr.compile(trust);
    early.start({
      apiHeaders,
      answered: (answer) => requestLog.early(answer),
      ipOf: (req) => (trusted ? proxyAddr(req, trusted) : (req.socket.remoteAddress ?? '')),
    });
  }
  return app;
}
