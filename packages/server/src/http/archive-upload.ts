import { createWriteStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, badRequest } from './errors.js';

// An archive sent as a request's body (a backup's upload, an account's import), streamed to a file within a size
// limit: never held in memory.

/** tooLarge is the 413 of a body over the limit. */
export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `The archive is larger than this server accepts (${maxBytes} bytes)`);
}

/** receiveFile streams a request body into `file`, refusing more than `maxBytes`; it returns the size. */
export async function receiveFile(body: Readable, file: string, maxBytes: number): Promise<number> {
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  await pipeline(body, limit, createWriteStream(file));
  if (bytes === 0) throw badRequest('invalid_archive', 'The request has no archive: send the .tar.gz file as the body');
  return bytes;
}

/** ARCHIVE_TYPES are the content types an archive may be sent with. */
export const ARCHIVE_TYPES = [
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
  'application/x-tar',
];

/** isArchiveType tells whether a request's Content-Type is one an archive may be sent with. */
export function isArchiveType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type !== undefined && ARCHIVE_TYPES.includes(type);
}

/** archiveExpected is the 415 of an upload whose body is not an archive. */
export const archiveExpected = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Send the .tar.gz archive as the body, with Content-Type application/gzip',
  );
