import type { IncomingMessage } from 'node:http';
import { Server } from '@tus/server';
import { ApiError } from '../../http/errors.js';
import type { Call, Route } from '../../http/routes/route.js';
import type { Actor } from '../../lib/actor/actor.js';
import { findObject } from './storage.store.js';
import { findBucketOf } from './storage-buckets.service.js';
import { actorOfCall, type StorageCallers, storageAdmission } from './storage-caller.js';
import { removeResumable } from './storage-cleanup.js';
import type { Storage } from './storage-context.js';
import { alreadyExists, forbidden, invalidInput, objectNotFound, tooLarge } from './storage-errors.js';
import { mimeTypeOf, objectName } from './storage-names.js';
import { checkUpload, limitOf, uploadObject } from './storage-objects.service.js';
import { mayDo, readAccess } from './storage-rules.js';

// Resumable uploads with the TUS protocol at /storage/v1/upload/resumable, as supabase-js documents them with
// tus-js-client or Uppy (metadata: bucketName, objectName, contentType, cacheControl; `x-upsert`). The protocol is
// @tus/server's, over the shared store of storage-resumable-store.ts (any node continues an upload another
// started; each upload is named in the database for its expiry, storage-cleanup.ts); Basalt decides who may start an upload (the bucket's rules,
// size and type checked before any byte), lets only its starter continue or see it, and on the last byte stores
// the object through the same path as any upload, then removes the partial file.

const PATH = '/storage/v1/upload/resumable';

/** resumableRoutes are the TUS routes of storage. */
export function resumableRoutes(ctx: StorageCallers, storage: Storage): Route[] {
  const store = storage.resumable;
  // Who started each request, for the hooks: they see the request @tus/server wraps, not the route's call.
  const actors = new WeakMap<IncomingMessage, Actor>();
  const actorOfRequest = (req: unknown): Actor => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const actor = node ? actors.get(node) : undefined;
    if (!actor) throw { status_code: 401, body: 'Unauthorized' };
    return actor;
  };
  const tus = new Server({
    path: PATH,
    datastore: store,
    maxSize: storage.maxFileSize,
    onUploadCreate: async (req, upload) => ({
      metadata: { ...upload.metadata, basaltActor: JSON.stringify(actorOfRequest(req)) },
    }),
    onUploadFinish: async (_req, upload) => {
      const meta = upload.metadata ?? {};
      const actor = JSON.parse(meta.basaltActor ?? 'null') as Actor;
      try {
        await uploadObject(
          storage,
          actor,
          meta.bucketName,
          meta.objectName,
          {
            stream: await store.read(upload.id),
            contentType: mimeTypeOf(meta.contentType ?? undefined),
            contentLength: upload.size ?? null,
            cacheControl: meta.cacheControl ? `max-age=${meta.cacheControl}` : 'no-cache',
            metadata: null,
          },
          meta.upsert === 'true' ? 'upsert' : 'create',
        );
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 500;
        const message = error instanceof ApiError ? error.message : 'The upload could not be stored';
        throw { status_code: status, body: JSON.stringify({ statusCode: String(status), error: 'Error', message }) };
      } finally {
        await removeResumable(storage, upload.id);
      }
      return {};
    },
  });

  const handOver = async (call: Call, raw: IncomingMessage, res: import('node:http').ServerResponse) => {
    actors.set(raw, actorOfCall(call));
    await tus.handle(raw, res);
  };

  // Checks a new upload before any byte: bucket, name, rules, type and declared size.
  const checkStart = async (call: Call) => {
    const actor = actorOfCall(call);
    const meta = metadataOf(call.headers['upload-metadata']);
    const bucket = await findBucketOf(storage, actor.accountId, meta.bucketName);
    const name = objectName(meta.objectName);
    const upsert = call.headers['x-upsert'] === 'true';
    const access = readAccess(bucket.access);
    if (!mayDo(actor, access, 'insert', name) || (upsert && !mayDo(actor, access, 'update', name))) throw forbidden();
    const length = Number(call.headers['upload-length']);
    if (!Number.isSafeInteger(length) || length < 0) throw invalidInput('Upload-Length must be a number of bytes');
    if (length > limitOf(storage, bucket)) throw tooLarge();
    checkUpload(storage, bucket, { contentType: mimeTypeOf(meta.contentType), contentLength: length });
    if (!upsert && (await findObject(storage.db.kysely, bucket.id, name))) throw alreadyExists();
    // The upsert choice travels with the upload, whatever later requests say.
    call.headers['upload-metadata'] =
      `${call.headers['upload-metadata']},upsert ${Buffer.from(String(upsert)).toString('base64')}`;
  };

  // Only the upload's starter may continue, see or cancel it; to anyone else it does not exist.
  const checkOwner = async (call: Call) => {
    const actor = actorOfCall(call);
    const id = call.params.id ?? '';
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw objectNotFound();
    let started: Actor;
    try {
      started = JSON.parse((await store.getUpload(id)).metadata?.basaltActor ?? 'null') as Actor;
    } catch {
      throw objectNotFound();
    }
    if (!started || started.accountId !== actor.accountId || started.endUser?.id !== actor.endUser?.id) {
      throw objectNotFound();
    }
  };

  const admit = storageAdmission(ctx);
  return [
    {
      method: 'POST',
      url: PATH,
      family: 'storage',
      admit,
      body: 'stream',
      handler: async (call, request, reply) => {
        await checkStart(call);
        request.raw.headers['upload-metadata'] = call.headers['upload-metadata'];
        reply.hijack();
        await handOver(call, request.raw, reply.raw);
      },
    },
    {
      method: ['PATCH', 'HEAD', 'DELETE'],
      url: `${PATH}/:id`,
      family: 'storage',
      admit,
      body: 'stream',
      handler: async (call, request, reply) => {
        await checkOwner(call);
        reply.hijack();
        await handOver(call, request.raw, reply.raw);
      },
    },
  ];
}

/** metadataOf reads TUS's Upload-Metadata: comma-separated `key base64(value)` pairs. */
function metadataOf(header: unknown): Record<string, string> {
  if (typeof header !== 'string' || header.length > 8192) throw invalidInput('Upload-Metadata is required');
  const out: Record<string, string> = {};
  for (const pair of header.split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (!key) continue;
    if (key === 'basaltActor' || key === 'upsert') throw invalidInput(`Upload-Metadata may not set ${key}`);
    out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}
