import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isForeignKeyViolation } from '../db/foreign-keys.js';
import { type ErrorFamily, errorFamilyOf, formatError } from './error-family.js';
import { ApiError, invalid } from './errors.js';
import { fieldErrorsOf } from './validation.js';

const BAD_JSON: Record<ErrorFamily, [string, string]> = {
  auth: ['bad_json', 'Could not parse request body as JSON'],
  rest: ['PGRST102', 'Empty or invalid json'],
  console: ['bad_json', 'The request body is not valid JSON'],
  public: ['invalid_json', 'The request body is not valid JSON'],
  gateway: ['bad_json', 'The request body is not valid JSON'],
  storage: ['invalid_json', 'The request body is not valid JSON'],
  functions: ['bad_json', 'The request body is not valid JSON'],
};

const UNEXPECTED: Record<ErrorFamily, [string, string]> = {
  auth: ['unexpected_failure', 'Unexpected failure, please check server logs for more information'],
  rest: ['PGRST000', 'Unexpected failure, please check server logs for more information'],
  console: ['internal_error', 'Something went wrong on the server. Please try again.'],
  public: ['internal_error', 'Something went wrong on the server. Please try again.'],
  gateway: ['internal_error', 'Something went wrong on the server. Please try again.'],
  storage: ['internal_error', 'Something went wrong on the server. Please try again.'],
  functions: ['internal_error', 'Something went wrong on the server. Please try again.'],
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as FastifyError).statusCode === 'number';
}

/** toApiError turns anything thrown while handling a request into an ApiError, or null if unexpected. */
function toApiError(request: FastifyRequest, error: unknown, family: ErrorFamily, bodyLimit: number): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return invalid(fieldErrorsOf(error));
  // A write for an account (or session) deleted meanwhile, such as with a deleted account's unexpired token.
  if (isForeignKeyViolation(error)) {
    return new ApiError(401, 'session_not_found', 'Your session has ended. Please sign in again.');
  }
  if (!isFastifyError(error)) return null;
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  if (status === 413) {
    const own = request.routeOptions?.config?.bodyTooLarge;
    if (own) return own();
    const limit = `${Math.round(bodyLimit / 1024)} KiB`;
    return new ApiError(413, 'payload_too_large', `The request body is larger than the ${limit} this server accepts.`);
  }
  if (status === 415) {
    return new ApiError(
      415,
      'unsupported_media_type',
      'Send the request body as JSON (Content-Type: application/json).',
    );
  }
  if (
    error instanceof SyntaxError ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
  ) {
    const [code, message] = BAD_JSON[family];
    return new ApiError(400, code, message);
  }
  if (status === 429) return new ApiError(429, 'rate_limited', error.message);
  return new ApiError(status, error.code?.toLowerCase() ?? 'bad_request', error.message);
}

/** sendApiError writes an ApiError in the request's family shape. */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.details.headers ?? {})) reply.header(name, value);
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send(formatError(errorFamilyOf(request), error));
}

/**
 * installErrorHandler maps every error to its family's JSON; unexpected ones become a bare 500 and a log line,
 * and are handed to onUnexpected (the system log keeps them with their context).
 */
export function installErrorHandler(
  app: FastifyInstance,
  bodyLimit: number,
  onUnexpected?: (request: FastifyRequest, error: unknown) => void,
): void {
  app.setErrorHandler((error, request, reply) => {
    const family = errorFamilyOf(request);
    const apiError = toApiError(request, error, family, bodyLimit);
    if (apiError) return sendApiError(request, reply, apiError);
    request.log.error({ err: error }, 'unexpected error while handling a request');
    onUnexpected?.(request, error);
    const [code, message] = UNEXPECTED[family];
    return sendApiError(request, reply, new ApiError(500, code, message));
  });
}
