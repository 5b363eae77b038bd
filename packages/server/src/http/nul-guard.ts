import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ErrorFamily, errorFamilyOf } from './error-family.js';
import { ApiError } from './errors.js';

// PostgreSQL's text and jsonb cannot hold U+0000 (it fails with 22021, which no feature expects: a 500), while
// SQLite stores it, so the two engines would disagree on the same request. Rather than every feature guarding
// every text field (names, descriptions, emails, metadata, filters), text with a NUL is refused here, once, before
// any work: in the URL (path and query, where it can only arrive as %00) and anywhere in a JSON body (where it can
// only arrive as the escape \u0000). Both checks start with a plain substring search, so requests without the
// character pay for nothing more; a body that holds the escape is then walked to see whether a string or a key
// really holds the character (`\\u0000` is a backslash and "u0000") and to name where it is.

const URL_NUL = '%00';
const JSON_NUL = '\\u0000';
const NUL = '\u0000';
const URL_MESSAGE = 'The URL must not contain the NUL character (%00)';

/** installNulGuard refuses, in the route's error family, a request whose URL holds an encoded NUL character. */
export function installNulGuard(app: FastifyInstance): void {
  // A callback hook: it runs on every request and has nothing to wait for.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.includes(URL_NUL)) return done();
    done(nulInUrl(errorFamilyOf(request)));
  });
}

/**
 * nulInJsonBody returns the 400 for a parsed JSON body with a NUL character in one of its strings or keys, or
 * null when it has none. `text` is the body as received.
 */
export function nulInJsonBody(request: FastifyRequest, text: string, value: unknown): ApiError | null {
  if (!text.includes(JSON_NUL)) return null;
  const where = whereNulIs(value);
  return where === undefined ? null : nulInBody(errorFamilyOf(request), where);
}

// The dotted path of the first string holding a NUL, or of the object whose key holds one; null for the body
// itself, undefined when there is none. A loop, not recursion: bodies may nest thousands of levels deep.
function whereNulIs(body: unknown): string | null | undefined {
  const stack: Array<[unknown, string | null]> = [[body, null]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, path] = item;
    if (typeof node === 'string') {
      if (node.includes(NUL)) return path;
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      if (key.includes(NUL)) return path;
      stack.push([child, path === null ? key : `${path}.${key}`]);
    }
  }
  return undefined;
}

function nulInUrl(family: ErrorFamily): ApiError {
  switch (family) {
    case 'rest':
      // What PostgreSQL, and so PostgREST, answers for such text.
      return new ApiError(400, '22021', 'invalid byte sequence for encoding "UTF8": 0x00', {
        hint: 'Remove %00 from the URL',
      });
    case 'public':
      return new ApiError(400, 'invalid_query', URL_MESSAGE);
    default:
      return new ApiError(400, 'validation_failed', URL_MESSAGE);
  }
}

function nulInBody(family: ErrorFamily, field: string | null): ApiError {
  const message = `${field ?? 'The request body'} must not contain the NUL character (\\u0000)`;
  const fieldErrors = field === null ? undefined : { [field]: [message] };
  switch (family) {
    case 'rest':
      // PostgREST hands the body to PostgreSQL as JSON, whose parser refuses the escape with these words.
      return new ApiError(400, '22P05', 'unsupported Unicode escape sequence', {
        details: '\\u0000 cannot be converted to text.',
        hint: `Remove the NUL character from ${field ?? 'the request body'}`,
      });
    case 'public':
      return new ApiError(400, field === null ? 'invalid_body' : 'invalid_field', message, { fieldErrors });
    default:
      return new ApiError(400, 'validation_failed', message, { fieldErrors });
  }
}
