import { createHash, timingSafeEqual } from 'node:crypto';
import { healthHistoryQuerySchema, metricsQuerySchema } from '@basalt/shared/monitoring';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { ApiError, notFound } from '../../http/errors.js';
import { answer, type Call, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import { readHealthHistory } from './health-history.js';
import { metricsReport } from './metrics.service.js';
import type { Monitoring } from './metrics-writer.js';

const NO_STORE = { 'Cache-Control': 'no-store' };
const digest = (text: string) => createHash('sha256').update(text).digest();

/** MonitoringRouteDeps is what the monitoring routes use of the server. */
export interface MonitoringRouteDeps {
  callers: Callers;
  db: Db;
  config: Pick<Config, 'metricsToken'>;
  monitoring: Monitoring;
}

/**
 * monitoringRoutes: an account's request metrics (GET /api/metrics), the instance's for its administrators
 * (GET /api/metrics/instance), the database's health history (GET /api/health/database/history), and the
 * operator's Prometheus endpoint (GET /metrics, a bearer token: METRICS_TOKEN; without one it does not exist).
 */
export function monitoringRoutes({ callers, db, config, monitoring }: MonitoringRouteDeps): Route[] {
  const expected = config.metricsToken === null ? null : digest(config.metricsToken);
  // Compared as digests: equal lengths, and a constant time whatever the caller sent.
  const tokenMatches = (call: Call) => {
    const header = call.headers.authorization;
    if (typeof header !== 'string' || !/^bearer /i.test(header)) return false;
    return expected !== null && timingSafeEqual(digest(header.slice(7).trim()), expected);
  };
  return [
    {
      method: 'GET',
      url: '/api/metrics',
      family: 'console',
      admit: [callers.user],
      docs: { summary: "The account's API requests, errors and latency over time", query: metricsQuerySchema },
      handler: async (call) => {
        const query = parseInput(metricsQuerySchema, call.query);
        return answer(await metricsReport(db, call.actor, query, { instance: false }), { headers: NO_STORE });
      },
    },
    {
      method: 'GET',
      url: '/api/metrics/instance',
      family: 'console',
      admit: [callers.admin],
      docs: { summary: "The instance's API requests, errors and latency over time", query: metricsQuerySchema },
      handler: async (call) => {
        const query = parseInput(metricsQuerySchema, call.query);
        return answer(await metricsReport(db, call.actor, query, { instance: true }), { headers: NO_STORE });
      },
    },
    {
      method: 'GET',
      url: '/api/health/database/history',
      family: 'console',
      admit: [callers.user],
      docs: { summary: "The database's health, a snapshot a minute", query: healthHistoryQuerySchema },
      handler: async (call) => {
        const query = parseInput(healthHistoryQuerySchema, call.query);
        return answer(await readHealthHistory(db, query), { headers: NO_STORE });
      },
    },
    {
      method: 'GET',
      url: '/metrics',
      family: 'console',
      admit: [],
      handler: async (call) => {
        const prometheus = monitoring.prometheus;
        if (prometheus === null) throw notFound();
        if (!tokenMatches(call)) {
          throw new ApiError(401, 'unauthorized', 'A valid bearer token is required', {
            headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
          });
        }
        const { body, contentType } = await prometheus.text();
        return answer(body, { headers: { ...NO_STORE, 'Content-Type': contentType } });
      },
    },
  ];
}
