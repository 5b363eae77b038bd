import { invalidInput, invalidKey } from './storage-errors.js';

// What object and bucket names may be. Bytes are never stored under these names (storage-blobs.ts), so the rules
// are about keeping names meaningful and unambiguous: no NUL or control characters, no backslashes, no absolute
// paths, no `.` or `..` segments, no empty segments, bounded length, and one Unicode form (NFC) so that two names
// that look the same are the same name.

const MAX_NAME_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
/** hasControl tells whether a text holds a C0 or C1 control character or DEL. */
export function hasControl(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
const BUCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** objectName checks and normalises an object's name (its path within the bucket); throws 400 InvalidKey. */
export function objectName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0) throw invalidKey(String(raw ?? ''));
  const name = raw.normalize('NFC');
  const shown = JSON.stringify(name).slice(1, -1).slice(0, 200);
  if (Buffer.byteLength(name) > MAX_NAME_BYTES || hasControl(name) || name.includes('\\')) throw invalidKey(shown);
  if (name.startsWith('/')) throw invalidKey(shown);
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.' || segment === '..' || Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      throw invalidKey(shown);
    }
  }
  return name;
}

/** prefixOf checks a list prefix: an object name's start, possibly empty or ending in `/`. */
export function prefixOf(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return '';
  if (typeof raw !== 'string') throw invalidInput('prefix must be a string');
  const trimmed = raw.replace(/\/+$/, '');
  return trimmed === '' ? '' : `${objectName(trimmed)}/`;
}

/** bucketName checks a bucket's name (Supabase: letters, digits, `_`, `-`, `.`; at most 63). */
export function bucketName(raw: unknown): string {
  if (typeof raw !== 'string' || !BUCKET_NAME.test(raw) || raw.includes('..')) {
    throw invalidInput('Bucket name invalid');
  }
  return raw;
}

/** mimeAllowed tells whether a MIME type is in a bucket's list (`image/*` matches every image type). */
export function mimeAllowed(type: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.endsWith('/*') ? bare.startsWith(p.slice(0, -1)) : p === bare;
  });
}

/** mimeTypeOf checks a declared content type: `type/subtype` with optional parameters, else 400. */
export function mimeTypeOf(raw: unknown, fallback = 'application/octet-stream'): string {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || raw.length > 255 || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(raw) || hasControl(raw)) {
    throw invalidInput('Invalid Content-Type');
  }
  return raw.split(';')[0]?.trim().toLowerCase() ?? fallback;
}
