import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { EarlyAnswer } from '../../http/routes/early-runner.js';
import { type AnsweredRequest, answeredOf, type RequestLogOptions, recordAnswered } from './log-events.js';
import type { LogWriter } from './log-writer.js';

// One account of every answered request, whichever path answered it (Fastify's or the early runner's): a stdout
// line, without the query string (it may carry an apikey) and without bodies, at info for a refused request (400
// and above) and at debug for the others; and the system log's entry or summary (log-events.ts). Writing a line
// for each successful request cost a third of a get-by-id's time: LOG_LEVEL=debug turns that access log on.

/** RequestLog hears the requests of both paths. */
export interface RequestLog {
  /** fastify is Fastify's onResponse hook. */
  fastify(request: FastifyRequest, reply: FastifyReply): void;
  /** early hears an answer of the early runner. */
  early(answer: EarlyAnswer): void;
}

const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
};

/** createRequestLog makes the request log of one server. */
export function createRequestLog(options: {
  log: FastifyBaseLogger;
  logs: LogWriter;
  logLevel: string;
  stored: RequestLogOptions;
  /** observers hear every answered request too, on either path (the request metrics); they must not throw. */
  observers?: ((answered: AnsweredRequest) => void)[];
}): RequestLog {
  const { log, logs, stored } = options;
  const observers = options.observers ?? [];
  const linesForSuccess =
    (pino.levels.values[options.logLevel] ?? Number.POSITIVE_INFINITY) <= (pino.levels.values.debug ?? 20);
  const line = (answered: AnsweredRequest) => {
    const level = answered.status >= 400 ? 'info' : 'debug';
    if (level === 'debug' && !linesForSuccess) return;
    const { principal } = answered;
    log[level](
      {
        reqId: answered.requestId,
        method: answered.method,
        path: pathOf(answered.url),
        status: answered.status,
        durationMs: answered.durationMs,
        answeredBy: answered.early ? 'early' : 'fastify',
        accountId: 'accountId' in principal ? principal.accountId : undefined,
        endUserId: principal.kind === 'endUser' ? principal.userId : undefined,
        keyId: principal.kind === 'apiKey' ? principal.keyId : undefined,
      },
      'request',
    );
  };
  return {
    fastify(request, reply) {
      const answered = answeredOf(request, reply);
      line(answered);
      recordAnswered(logs, answered, stored);
      for (const observe of observers) observe(answered);
    },
    early(answer) {
      const answered: AnsweredRequest = {
        method: answer.method,
        url: answer.url,
        status: answer.status,
        durationMs: answer.durationMs,
        bytes: answer.bytes,
        principal: answer.call.principal,
        requestId: answer.requestId,
        route: answer.route,
        params: answer.params,
        early: true,
      };
      line(answered);
      recordAnswered(logs, answered, stored);
      for (const observe of observers) observe(answered);
    },
  };
}
