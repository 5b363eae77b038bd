import { ApiError } from '../../http/errors.js';

// Refusals as Supabase Storage words them: `{statusCode, error, message}` (http/error-family.ts draws the shape).

const storageError = (status: number, error: string, message: string) =>
  new ApiError(status, error, message, { family: 'storage' });

/** objectNotFound is a missing object, or one the caller may not see: the two are told apart by no one. */
export const objectNotFound = () => storageError(404, 'not_found', 'Object not found');
/** bucketNotFound is a missing bucket, or another account's. */
export const bucketNotFound = () => storageError(404, 'Bucket not found', 'Bucket not found');
/** invalidInput is a malformed request. */
export const invalidInput = (message: string) => storageError(400, 'InvalidRequest', message);
/** invalidKey is an object name Storage refuses. */
export const invalidKey = (name: string) => storageError(400, 'InvalidKey', `Invalid key: ${name}`);
/** tooLarge is an object over its bucket's (or the instance's) limit. */
export const tooLarge = () => storageError(413, 'Payload too large', 'The object exceeded the maximum allowed size');
/** wrongMimeType is an object whose type the bucket does not accept. */
export const wrongMimeType = (type: string) =>
  storageError(415, 'invalid_mime_type', `mime type ${type} is not supported`);
/** alreadyExists is an upload or bucket over an existing one without upsert. */
export const alreadyExists = () => storageError(409, 'Duplicate', 'The resource already exists');
/** rangeNotSatisfiable is a Range past the object's end. */
export const rangeNotSatisfiable = () => storageError(416, 'InvalidRange', 'Range Not Satisfiable');
/** unauthorized is a call without the credentials it needs. */
export const unauthorized = (message = 'Invalid JWT') => storageError(401, 'Unauthorized', message);
/** forbidden is a caller the rules do not let do this. */
export const forbidden = (message = 'new row violates row-level security policy') =>
  storageError(403, 'Unauthorized', message);
/** bucketNotEmpty is a delete of a bucket that still holds objects. */
export const bucketNotEmpty = () => storageError(409, 'InvalidRequest', 'The bucket you tried to delete is not empty');
/** badSignature is a signed URL whose token is forged, expired or for another object. */
export const badSignature = (message = 'invalid signature') => storageError(400, 'InvalidSignature', message);
