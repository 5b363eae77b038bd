import type { FastifyRequest } from 'fastify';
import type { BucketRow } from './storage.store.js';
import type { Storage } from './storage-context.js';
import { invalidInput } from './storage-errors.js';
import { hasControl, mimeTypeOf } from './storage-names.js';
import { limitOf, type UploadSource } from './storage-objects.service.js';

// How an upload's body arrives: as the raw body with its type in Content-Type (supabase-js with a Buffer or a
// stream), or as a multipart form (a browser's File or Blob: fields `cacheControl` and `metadata` first, then the
// file under any name). Neither is ever read whole into memory: the file's stream goes on to the blob store.

const MAX_METADATA_BYTES = 8 * 1024;

function metadataOf(raw: unknown, base64: boolean): Record<string, unknown> | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > MAX_METADATA_BYTES) throw invalidInput('Invalid metadata');
  try {
    const parsed: unknown = JSON.parse(base64 ? Buffer.from(raw, 'base64').toString('utf8') : raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Reported below, as any other metadata that is not a JSON object.
  }
  throw invalidInput('metadata must be a JSON object');
}

/** cacheControlOf reads a cache-control value: "3600" (seconds, as forms send it) or a header's own text. */
function cacheControlOf(raw: unknown): string {
  if (raw === undefined || raw === '') return 'no-cache';
  if (typeof raw !== 'string' || raw.length > 200 || hasControl(raw)) {
    throw invalidInput('Invalid cache-control');
  }
  return /^\d+$/.test(raw) ? `max-age=${raw}` : raw;
}

/** uploadSourceOf reads an upload's body and headers for a bucket (its limit bounds the multipart reader). */
export async function uploadSourceOf(
  storage: Storage,
  bucket: BucketRow,
  request: FastifyRequest,
): Promise<UploadSource> {
  const headers = request.headers;
  const declared = headers['content-length'];
  const contentLength = declared === undefined ? null : Number(declared);
  if (!request.isMultipart()) {
    return {
      stream: request.raw,
      contentType: mimeTypeOf(headers['content-type']),
      contentLength: Number.isFinite(contentLength) ? contentLength : null,
      cacheControl: cacheControlOf(headers['cache-control']),
      metadata: metadataOf(headers['x-metadata'], true),
    };
  }
  const limit = limitOf(storage, bucket);
  const fields: Record<string, string> = {};
  // One past the limit, so that the blob store (not the form reader) notices the object is too large.
  const parts = request.parts({
    limits: {
      fileSize: Number.isFinite(limit) ? limit + 1 : undefined,
      files: 1,
      fields: 10,
      fieldSize: MAX_METADATA_BYTES,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      return {
        stream: part.file,
        contentType: mimeTypeOf(fields.contentType || part.mimetype),
        contentLength: null,
        cacheControl: cacheControlOf(fields.cacheControl),
        metadata: metadataOf(fields.metadata, false),
      };
    }
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error)
      throw invalidInput(`Malformed multipart body: ${error.message}`);
    throw error;
  }
  throw invalidInput('The form holds no file');
}
