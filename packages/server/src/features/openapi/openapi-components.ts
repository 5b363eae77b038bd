import { PUBLIC_LIST_LIMITS } from '../public-api/public-api.query.js';
import { componentRef, DELETE_RESULT_SCHEMA, ERROR_SCHEMA, type JsonObject, json, schemaRef } from './openapi-parts.js';

// What every account's document shares: parameters, headers, error responses, the error and delete bodies.

const errorBody = (description: string, extra: JsonObject = {}): JsonObject => ({
  description,
  ...extra,
  content: json(schemaRef(ERROR_SCHEMA)),
});

const intHeader = (description: string): JsonObject => ({ description, schema: { type: 'integer', minimum: 0 } });

const queryParameter = (name: string, description: string, schema: JsonObject): JsonObject => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** sharedComponents are the parameters, headers and responses every table's operations refer to. */
export function sharedComponents(): JsonObject {
  return {
    parameters: {
      limit: queryParameter(
        'limit',
        `How many records to return: ${PUBLIC_LIST_LIMITS.defaultLimit} by default, at most ` +
          `${PUBLIC_LIST_LIMITS.maxLimit} (a larger value is capped). 0 returns none and still counts them.`,
        { type: 'integer', minimum: 0, default: PUBLIC_LIST_LIMITS.defaultLimit },
      ),
      offset: queryParameter('offset', 'How many records to skip.', { type: 'integer', minimum: 0, default: 0 }),
      order: queryParameter('order', 'The direction of orderBy (any case).', {
        type: 'string',
        enum: ['asc', 'desc'],
        default: 'asc',
      }),
      or: queryParameter('or', 'Records matching any of several filters, such as (qty.gt.10,name.eq.pen).', {
        type: 'string',
      }),
      and: queryParameter('and', 'Records matching all of several filters, such as (qty.gt.10,qty.lt.20).', {
        type: 'string',
      }),
      recordId: {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The record id.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    headers: {
      'X-Total-Count': intHeader('How many records match the filters, across every page.'),
      'X-Page-Limit': intHeader('The limit applied to this page.'),
      'X-Page-Offset': intHeader('The offset of this page.'),
      Location: { description: 'The URL of the new record.', schema: { type: 'string' } },
      'Retry-After': intHeader('Seconds to wait before trying again.'),
      'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
    },
    responses: {
      BadRequest: errorBody(
        'The body or the query is not valid: malformed JSON, an unknown column, a value of the wrong type, a ' +
          'missing required column, or a malformed filter. details maps each bad column to its messages.',
      ),
      Unauthorized: errorBody('Missing or invalid API key.', {
        headers: { 'WWW-Authenticate': componentRef('headers', 'WWW-Authenticate') },
      }),
      Forbidden: errorBody('The credentials cannot use this API (the service key has no account).'),
      NotFound: errorBody('No table of this name in the account, or no record with this id.'),
      Conflict: errorBody('A unique column already holds this value.'),
      RateLimited: errorBody('Too many requests with this key: wait as long as Retry-After says.', {
        headers: { 'Retry-After': componentRef('headers', 'Retry-After') },
      }),
      ServerError: errorBody('Something went wrong on the server.'),
    },
  };
}

/** sharedSchemas are the error and delete bodies. */
export const sharedSchemas: JsonObject = {
  [ERROR_SCHEMA]: {
    type: 'object',
    description: 'Every error of this API.',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'What went wrong, upper case: TABLE_NOT_FOUND, MISSING_FIELD, …' },
          message: { type: 'string', description: 'A sentence for a person.' },
          details: {
            description: 'Per-column messages ({column: [messages]}), other facts, or null.',
            anyOf: [
              { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
              { type: 'object' },
              { type: 'string' },
              { type: 'null' },
            ],
          },
        },
        required: ['code', 'message', 'details'],
      },
    },
    required: ['error'],
  },
  [DELETE_RESULT_SCHEMA]: {
    type: 'object',
    properties: {
      success: { type: 'boolean', const: true },
      message: { type: 'string', examples: ['Record deleted successfully'] },
    },
    required: ['success', 'message'],
  },
};
