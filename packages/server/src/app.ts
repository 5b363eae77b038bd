import http from 'node:http';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import type { AppContext } from './app-context.js';
import { type Config, quotasEnforced } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { accountRoutes } from './features/account/account.routes.js';
import { activityRoutes } from './features/activity/activity.routes.js';
import { appAuthPools } from './features/apps/app-user-pool.js';
import { appsRoutes } from './features/apps/apps.routes.js';
import { appOwnerOf, matchAppKey } from './features/apps/apps.service.js';
import { configureApps } from './features/apps/apps-config.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { createAuthDeps, secretSealerOf } from './features/auth/auth-deps.js';
import { secondFactorOf } from './features/auth/second-factor.js';
import { endUserSessionLivenessOf, sessionLivenessOf } from './features/auth/session-liveness.js';
import { findSessionByCookieHash } from './features/auth/sessions.store.js';
import { tokenIssuerOf } from './features/auth/token-issuer.js';
import { createTokenService } from './features/auth/tokens.service.js';
import { billingRoutes } from './features/billing/billing.routes.js';
import { stripeClientOf } from './features/billing/stripe-client.js';
import { createUsageMeter } from './features/billing/usage-meter.js';
import { installMetering } from './features/billing/usage-metering.js';
import { createUsageWarnings } from './features/billing/usage-warnings.js';
import { configRoutes } from './features/config/config.routes.js';
import { functionsRoutes } from './features/functions/functions.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { checkpointsRoutes } from './features/history/checkpoints.routes.js';
import { historyRoutes } from './features/history/history.routes.js';
import { startHistoryRetention } from './features/history/history-retention.js';
import { apiKeyLookupOf } from './features/keys/keys.lookup.js';
import { keysRoutes } from './features/keys/keys.routes.js';
import { recordAnswered, recordRequest, recordUnexpectedError } from './features/logs/log-events.js';
import { createLogWriter } from './features/logs/log-writer.js';
import { logsRoutes } from './features/logs/logs.routes.js';
import { openapiRoutes } from './features/openapi/openapi.routes.js';
import { projectsRoutes } from './features/projects/projects.routes.js';
import { schemaRoomRoutes } from './features/projects/schema-room.routes.js';
import { publicApiRoutes } from './features/public-api/public-api.routes.js';
import { tableRecordsRoutes } from './features/records/table-records.routes.js';
import { restRoutes } from './features/rest/rest.routes.js';
import { secretsRoutes } from './features/secrets/secrets.routes.js';
import { sqlRoutes } from './features/sql/sql.routes.js';
import { statsRoutes } from './features/stats/stats.routes.js';
import { tablesRoutes } from './features/tables/tables.routes.js';
import { consoleAccountsRoutes } from './features/users/console-accounts.routes.js';
import { usersRoutes } from './features/users/users.routes.js';
import { createCsrfTokens } from './http/csrf.js';
import { csrfRoutes } from './http/csrf.routes.js';
import { errorFamilyOf, formatError } from './http/error-family.js';
import { installErrorHandler } from './http/error-handler.js';
import { notFound } from './http/errors.js';
import { createFastReads, requestIdOf } from './http/fast-reads.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installNulGuard } from './http/nul-guard.js';
import { installPrincipal } from './http/principal.js';
import { requestTimeouts } from './http/request-timeout.js';
import { contentSecurityPolicy, installSecurityHeaders } from './http/security-headers.js';
import { consoleIndexHtml, inlineScriptHashes, serveConsole } from './http/static-console.js';
import { createMailer, mailFromAddress } from './lib/mail/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** basalt is the instance's context (config, database, keys); tests read the keys from it. */
    basalt: AppContext;
  }
}

// `/api` alone is a console page (API keys); only paths below it belong to the API. Every path of an API family
// answers JSON in its family's shape, a 404 when nothing serves it, never the console's page.
const API_PATHS = /^\/(api\/|(auth|rest|storage|realtime|functions)\/v1([/?]|$)|\.well-known\/)/;

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
];
const CORS_EXPOSED_HEADERS = [
  'Content-Range',
  'Range-Unit',
  'Location',
  'Content-Location',
  'Preference-Applied',
  'X-Total-Count',
  'Link',
  'X-Supabase-Api-Version',
  'X-Page-Limit',
  'X-Page-Offset',
  'Retry-After',
];

const CORS_OPTIONS = {
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  // Joined once here: the plugin would join an array on every response.
  allowedHeaders: CORS_ALLOWED_HEADERS.join(', '),
  exposedHeaders: CORS_EXPOSED_HEADERS.join(', '),
  maxAge: 86400,
};
// With CORS_ORIGINS=*, CORS headers go only to a request that names its Origin, as every browser's cross-origin
// request does: other clients have no use for them. OPTIONS keeps the plugin's preflight handling, so that one
// without an Origin is refused as before. The answer then differs by Origin, so every answer says `Vary: Origin`
// (the plugin adds it to options chosen per request), and a shared cache keeps the two apart.
const CORS_FOR_ANY_ORIGIN = { ...CORS_OPTIONS, origin: '*' };
const NO_CORS = { ...CORS_OPTIONS, origin: false };
const corsForAnyOrigin =
  () =>
  (
    request: FastifyRequest,
    done: (error: Error | null, options: typeof CORS_FOR_ANY_ORIGIN | typeof NO_CORS) => void,
  ) =>
    done(null, request.headers.origin !== undefined || request.method === 'OPTIONS' ? CORS_FOR_ANY_ORIGIN : NO_CORS);

const KEEP_ALIVE_TIMEOUT_MS = 72_000;

const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
};

/** buildApp opens and migrates the database, loads the signing keys and registers every feature. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  // The record APIs' ordinary reads are answered before Fastify sees them (http/fast-reads.ts); the features
  // register them beside their routes, and they are served once the server is ready.
  const fastReads = createFastReads();
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
      const server = http.createServer(httpOptions, fastReads.handlerOf(handler));
      // Fastify's default, which it sets on a server it makes itself.
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      return server;
    },
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Fastify's two lines per request are replaced by one line in the onResponse hook below.
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
  // The nodes of one database issue tokens as one URL (features/auth/token-issuer.ts).
  const issuer = await tokenIssuerOf(db.kysely, config);
  if (issuer.changed) app.log.warn(issuer.changed);
  const tokens = await createTokenService(db.kysely, { issuer: issuer.issuer });
  // Basalt's own log, stored in batches off the requests' path (features/logs); it closes, storing what is
  // queued, before the database does (onClose hooks run last-added first).
  const logs = createLogWriter(db, { onError: (error) => app.log.warn({ err: error }, 'could not store log entries') });
  app.addHook('onClose', () => logs.close());
  // API calls are metered off the requests' path too (features/billing); the meter stores its counts before the
  // database closes. Warnings at 80 % and 100 % of a cap become notifications, and mails with SMTP.
  const warnings = createUsageWarnings(db, {
    mailer: config.smtpUrl
      ? createMailer({ smtpUrl: config.smtpUrl, from: mailFromAddress('Basalt', config.siteUrl), log: app.log })
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
  if (usage) app.addHook('onClose', () => usage.close());
  const stripeConfig = config.billing.stripe;
  const stripe = stripeConfig ? { client: stripeClientOf(stripeConfig), config: stripeConfig } : null;
  const ctx: AppContext = { config, db, tokens, log: app.log, logs, usage, stripe };
  // Each account's app signs its keys with the instance's key; confirmation mails are on by default with SMTP.
  // OAuth client secrets and TOTP secrets are sealed by the secrets vault under each account's data key.
  const secrets = secretSealerOf(ctx);
  configureApps(db, { tokens, mailDelivers: config.smtpUrl !== null, siteUrl: config.siteUrl, secrets });
  app.decorate('basalt', ctx);
  app.decorate('fastReads', fastReads);

  const requestLog = { everyRequest: config.logRequests === 'all' };
  // One stdout line per request, without the query string (it may carry an apikey) and without bodies: at info
  // for a refused request (400 and above), at debug for the others. Writing a line for each successful request
  // cost a third of a get-by-id's time; LOG_LEVEL=debug turns that access log on, and the system log has them
  // (summarised, features/logs/request-summaries.ts).
  const linesForSuccess =
    (pino.levels.values[config.logLevel] ?? Number.POSITIVE_INFINITY) <= (pino.levels.values.debug ?? 20);
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 400 ? 'info' : 'debug';
    if (level === 'info' || linesForSuccess) {
      const principal = request.principal;
      request.log[level](
        {
          method: request.method,
          path: pathOf(request.url),
          status,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
          accountId: 'accountId' in principal ? principal.accountId : undefined,
          endUserId: principal.kind === 'endUser' ? principal.userId : undefined,
          keyId: principal.kind === 'apiKey' ? principal.keyId : undefined,
        },
        'request',
      );
    }
    recordRequest(logs, request, reply, requestLog);
    done();
  });

  const indexHtml = consoleIndexHtml(config.consoleDir);
  installSecurityHeaders(app, { csp: contentSecurityPolicy(indexHtml ? inlineScriptHashes(indexHtml) : []) });
  if (config.corsOrigins.includes('*')) await app.register(fastifyCors, corsForAnyOrigin);
  else await app.register(fastifyCors, { ...CORS_OPTIONS, origin: config.corsOrigins });
  // Cookies are parsed where they are read (http/principal.ts), not on every request: only the console's
  // session uses them, and the record APIs never do.
  await app.register(fastifyCookie, { hook: false });
  installJsonBodyParser(app);
  installNulGuard(app);
  installErrorHandler(app, config.bodyLimit, (request, error) => recordUnexpectedError(logs, request, error));
  const apiKeys = apiKeyLookupOf(db);
  const sessions = sessionLivenessOf(db);
  const endUserSessions = endUserSessionLivenessOf(db);
  const secondFactor = secondFactorOf(db);
  const csrf = await createCsrfTokens(db.kysely);
  const principalNow = installPrincipal(app, {
    tokens,
    csrf,
    findCookieSession: (hash) => findSessionByCookieHash(db.kysely, hash),
    findApiKey: (secret) => apiKeys.resolve(secret),
    isSessionLive: (sessionId, accountId) => sessions.isLive(sessionId, accountId),
    matchAppKey: (key) => matchAppKey(db, key),
    appOwnerOf: (ref) => appOwnerOf(db, ref),
    isEndUserSessionLive: (sessionId, userId) => endUserSessions.isLive(sessionId, userId),
    needsSecondFactor: (accountId) => secondFactor.needed(accountId),
  });
  if (usage) installMetering(app, usage);

  // Every feature, in one list (STYLE.md "The whole API in one place").
  const authDeps = await createAuthDeps(ctx, { secrets });
  await app.register(healthRoutes, { ctx });
  await app.register(configRoutes, { ctx });
  await app.register(csrfRoutes, { csrf, siteUrl: config.siteUrl });
  const pools = appAuthPools(authDeps);
  await app.register(authRoutes, { pools });
  await app.register(accountRoutes, { deps: authDeps });
  await app.register(tablesRoutes, { ctx });
  await app.register(tableRecordsRoutes, { ctx });
  await app.register(projectsRoutes, { ctx });
  await app.register(schemaRoomRoutes, { ctx });
  await app.register(restRoutes, { ctx, fastReads });
  await app.register(historyRoutes, { ctx });
  await app.register(checkpointsRoutes, { ctx });
  await app.register(statsRoutes, { ctx });
  await app.register(activityRoutes, { ctx });
  await app.register(keysRoutes, { ctx });
  await app.register(appsRoutes, { ctx });
  await app.register(usersRoutes, { ctx, pools });
  await app.register(consoleAccountsRoutes, { deps: authDeps });
  await app.register(logsRoutes, { ctx });
  await app.register(openapiRoutes, { ctx });
  await app.register(sqlRoutes, { ctx });
  await app.register(secretsRoutes, { ctx });
  await app.register(functionsRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  // Last: its short form /api/:name only takes what no route above claims.
  await app.register(publicApiRoutes, { ctx, fastReads });

  if (config.consoleDir && indexHtml) await serveConsole(app, config.consoleDir);

  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !API_PATHS.test(request.url);
    if (isPage && indexHtml) {
      // SPA fallback: every console route loads on reload.
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    }
    const family = errorFamilyOf(request);
    const path = request.url.split('?')[0];
    const error =
      family === 'rest'
        ? notFound(`Could not find the table '${path?.slice('/rest/v1/'.length)}' in the schema cache`, 'PGRST205')
        : notFound(
            `No route for ${request.method} ${path}`,
            family === 'auth' || family === 'storage' ? 'not_found' : 'route_not_found',
          );
    return reply.status(404).send(formatError(family, error));
  });

  // Background work: pruning history older than HISTORY_RETENTION_DAYS (features/history/history-retention.ts).
  app.addHook('onClose', startHistoryRetention(ctx));

  // A closing server answers 503 to new requests: Fastify's to answer.
  app.addHook('preClose', (done) => {
    fastReads.stop();
    done();
  });
  await app.ready();
  // A line per request (LOG_LEVEL=debug) and CORS for a list of origins are Fastify's hooks' to write.
  if (config.fastReads && !linesForSuccess && config.corsOrigins.includes('*')) {
    fastReads.start({
      principalNow,
      admitNow: (accountId) => usage?.admitNow(accountId) ?? true,
      answered: (facts) => recordAnswered(logs, facts, requestLog),
      corsExposedHeaders: CORS_EXPOSED_HEADERS.join(', '),
    });
  }
  return app;
}
