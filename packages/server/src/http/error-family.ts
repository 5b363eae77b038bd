import type { FastifyRequest } from 'fastify';
import type { ApiError, ErrorFamily } from './errors.js';

export type { ErrorFamily } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** errorFamily overrides the family a route's errors are formatted in. */
    errorFamily?: ErrorFamily;
    /** bodyTooLarge is the error a route answers for a body over its limit, in place of the usual 413. */
    bodyTooLarge?: () => ApiError;
  }
}

/** errorFamilyOf picks the family from the route's config, else from the path. */
export function errorFamilyOf(request: FastifyRequest): ErrorFamily {
  const configured = request.routeOptions?.config?.errorFamily;
  if (configured) return configured;
  const url = request.url;
  if (url.startsWith('/auth/v1') || url.startsWith('/.well-known')) return 'auth';
  if (url.startsWith('/rest/v1')) return 'rest';
  if (url.startsWith('/storage/v1')) return 'storage';
  if (url.startsWith('/realtime/v1')) return 'gateway';
  if (url.startsWith('/api/table/') || url === '/api/table') return 'public';
  return 'console';
}

/** formatError renders an ApiError as the body its family's clients expect. */
export function formatError(family: ErrorFamily, error: ApiError): Record<string, unknown> {
  const { details } = error;
  switch (details.family ?? family) {
    case 'gateway':
      return { message: error.message };
    case 'functions':
      // A function call's own refusals: Supabase's relay answers `{code, message}` (and a limit's name).
      return { code: error.code, message: error.message, ...details.extra };
    case 'auth':
      return { code: error.status, error_code: error.code, msg: error.message, ...details.extra };
    case 'rest':
      return {
        code: error.code,
        // A sentence, or (PGRST201's candidates) a list.
        details: typeof details.details === 'string' || Array.isArray(details.details) ? details.details : null,
        hint: details.hint ?? null,
        message: error.message,
      };
    case 'public':
      return {
        error: {
          code: error.code.toUpperCase(),
          message: error.message,
          details: details.fieldErrors ?? details.details ?? null,
        },
      };
    case 'storage':
      // Supabase Storage's shape: the status as a string beside the error and its message.
      return { statusCode: String(error.status), error: error.code, message: error.message };
    case 'console':
      return {
        message: error.message,
        code: error.code,
        ...(details.fieldErrors ? { validationErrors: details.fieldErrors } : {}),
        ...(details.details ? { details: details.details } : {}),
      };
  }
}
