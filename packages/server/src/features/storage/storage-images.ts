import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ApiError } from '../../http/errors.js';
import type { ObjectRow } from './storage.store.js';
import type { Storage } from './storage-context.js';
import { invalidInput } from './storage-errors.js';
import { blobKeyOf } from './storage-objects.service.js';

// Image transformations on download (`/render/image/…` and `?width=&height=&resize=&quality=&format=` on an
// object's URL), with sharp. Bounded: at most MAX_SOURCE_BYTES of source and MAX_SIDE pixels a side out, and
// sharp's own limit on input pixels (a decompression bomb is refused). The result carries an ETag of its own
// (the object's and the options'), so a browser's cached copy answers 304 without transforming again.

const MAX_SIDE = 2500;
const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
const FORMATS = new Set(['origin', 'webp', 'avif', 'jpeg', 'png']);
const RESIZES = new Set(['cover', 'contain', 'fill']);
const TRANSFORMABLE = /^image\/(jpeg|png|webp|avif|gif|tiff)$/;

/** ImageTransform is what a download asked to change. */
export interface ImageTransform {
  width?: number;
  height?: number;
  resize: 'cover' | 'contain' | 'fill';
  quality: number;
  format: 'origin' | 'webp' | 'avif' | 'jpeg' | 'png';
}

const sideOf = (raw: unknown, name: string): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < 1 || value > MAX_SIDE) {
    throw invalidInput(`${name} must be a whole number from 1 to ${MAX_SIDE}`);
  }
  return value;
};

/** transformOf reads a download's transformation, or null when it asks for none. */
export function transformOf(query: Record<string, unknown>, required = false): ImageTransform | null {
  const { width, height, resize, quality, format } = query;
  if (!required && [width, height, resize, quality, format].every((v) => v === undefined)) return null;
  const q = quality === undefined ? 80 : Number(quality);
  if (!Number.isInteger(q) || q < 20 || q > 100) throw invalidInput('quality must be a whole number from 20 to 100');
  const r = resize ?? 'cover';
  if (typeof r !== 'string' || !RESIZES.has(r)) throw invalidInput('resize must be cover, contain or fill');
  const f = format ?? 'origin';
  if (typeof f !== 'string' || !FORMATS.has(f)) throw invalidInput('format must be origin, webp, avif, jpeg or png');
  return {
    width: sideOf(width, 'width'),
    height: sideOf(height, 'height'),
    resize: r as ImageTransform['resize'],
    quality: q,
    format: f as ImageTransform['format'],
  };
}

/** transformImage renders an object transformed: its bytes and headers (or 304 for a matching If-None-Match). */
export async function transformImage(
  storage: Storage,
  row: ObjectRow,
  transform: ImageTransform,
  ifNoneMatch: unknown,
): Promise<{ status: 200 | 304; headers: Record<string, string>; body: Buffer | null }> {
  if (!TRANSFORMABLE.test(row.mime_type)) throw invalidInput(`Cannot transform an object of type ${row.mime_type}`);
  if (Number(row.size) > MAX_SOURCE_BYTES) {
    throw new ApiError(413, 'Payload too large', 'The image is too large to transform', { family: 'storage' });
  }
  const tag = createHash('md5')
    .update(`${row.etag}:${JSON.stringify(transform)}`)
    .digest('hex');
  const etag = `"${tag}"`;
  const base = { ETag: etag, 'Cache-Control': row.cache_control };
  if (typeof ifNoneMatch === 'string' && ifNoneMatch.split(',').some((t) => t.trim() === etag)) {
    return { status: 304, headers: base, body: null };
  }
  let pipeline = sharp({ failOn: 'error' }).rotate();
  if (transform.width || transform.height) {
    pipeline = pipeline.resize({
      width: transform.width,
      height: transform.height,
      fit: transform.resize === 'contain' ? 'inside' : transform.resize,
      withoutEnlargement: true,
    });
  }
  const format = transform.format === 'origin' ? null : transform.format;
  if (format) pipeline = pipeline.toFormat(format, { quality: transform.quality });
  else if (/jpeg|webp|avif/.test(row.mime_type))
    pipeline = pipeline.toFormat(row.mime_type.slice(6) as 'jpeg', { quality: transform.quality });
  const source = await storage.blobs.get(blobKeyOf(row));
  source.pipe(pipeline);
  let body: Buffer;
  try {
    body = await pipeline.toBuffer();
  } catch {
    source.destroy();
    throw new ApiError(422, 'InvalidImage', 'The object is not an image that can be transformed', {
      family: 'storage',
    });
  }
  return {
    status: 200,
    headers: {
      ...base,
      'Content-Type': format ? `image/${format}` : row.mime_type,
      'Content-Length': String(body.length),
    },
    body,
  };
}
