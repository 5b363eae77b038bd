import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Call, FastifyRoute, Method, Route } from '../../http/routes/route.js';
import { type Actor, accountActor } from '../../lib/actor/actor.js';
import { type BucketRow, findPublicBuckets } from './storage.store.js';
import { findBucketOf } from './storage-buckets.service.js';
import { actorOfCall, maybeActorOfCall, type StorageCallers, storageAdmission } from './storage-caller.js';
import type { Storage } from './storage-context.js';
import { objectNotFound } from './storage-errors.js';
import { transformImage, transformOf } from './storage-images.js';
import { listObjects } from './storage-listing.js';
import { listObjectsV2 } from './storage-listing-v2.js';
import {
  download,
  objectInfo,
  publicHolder,
  readableObject,
  type UploadMode,
  uploadObject,
} from './storage-objects.service.js';
import { copyObject, moveObject, removeObjects, signObject, signObjects, signUpload } from './storage-transfer.js';
import { uploadSourceOf } from './storage-upload-source.js';

// Supabase Storage's objects (docs/storage.md): upload (POST creates, or replaces with `x-upsert: true`; PUT
// replaces), download (`/object/<bucket>/<path>`, `/object/authenticated/…`, `/object/public/…` without a key,
// `/object/sign/…?token=`), info, list, move, copy, remove and signed URLs. An object's path is the URL's rest
// (`*`), checked by storage-names.ts.

const V1 = '/storage/v1/object';
const RENDER = '/storage/v1/render/image';

const pathOf = (call: Call) => call.params['*'] ?? '';

/** storageObjectRoutes are the objects' routes. */
export function storageObjectRoutes(ctx: StorageCallers, storage: Storage): Route[] {
  const admit = storageAdmission(ctx);
  const json = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'storage',
    admit,
    handler,
  });
  const upload =
    (mode: (call: Call) => UploadMode) => async (call: Call, request: FastifyRequest, reply: FastifyReply) => {
      // An upload refused half-way leaves the rest of its body unread: the connection is not reused.
      reply.header('Connection', 'close');
      const actor = actorOfCall(call);
      const bucket = await findBucketOf(storage, actor.accountId, call.params.bucket);
      const source = await uploadSourceOf(storage, bucket, request);
      return uploadObject(storage, actor, bucket.name, pathOf(call), source, mode(call));
    };
  const serve = async (call: Call, reply: FastifyReply, bucket: BucketRow, actor: Actor | null, render: boolean) => {
    const row = await readableObject(storage, actor, bucket, pathOf(call));
    const transform = transformOf(call.query, render);
    if (transform) {
      const image = await transformImage(storage, row, transform, call.headers['if-none-match']);
      return reply
        .code(image.status)
        .headers(image.headers)
        .send(image.body ?? '');
    }
    const attachment = typeof call.query.download === 'string' ? call.query.download : null;
    const out = await download(storage, row, { headers: call.headers, head: call.method === 'HEAD', attachment });
    reply.code(out.status).headers(out.headers);
    return reply.send(out.stream ?? '');
  };
  const authenticated = (render: boolean) => async (call: Call, _request: FastifyRequest, reply: FastifyReply) => {
    const actor = actorOfCall(call);
    return serve(call, reply, await findBucketOf(storage, actor.accountId, call.params.bucket), actor, render);
  };
  const publicly = (render: boolean) => async (call: Call, _request: FastifyRequest, reply: FastifyReply) => {
    const actor = maybeActorOfCall(call);
    // With a key, the bucket is the account's; without one, the public bucket of that name that holds the object.
    if (actor)
      return serve(call, reply, await findBucketOf(storage, actor.accountId, call.params.bucket), null, render);
    const found = await findPublicBuckets(storage.db.kysely, call.params.bucket ?? '');
    return serve(call, reply, await publicHolder(storage, found, pathOf(call)), null, render);
  };
  const signed = (render: boolean) => async (call: Call, _request: FastifyRequest, reply: FastifyReply) => {
    const bucketName = call.params.bucket ?? '';
    const claims = await storage.signer.verify(call.query.token, bucketName, pathOf(call).normalize('NFC'), false);
    const bucket = await findBucketOf(storage, claims.a, bucketName);
    return serve(call, reply, bucket, accountActor(claims.a), render);
  };
  const get = (url: string, handler: FastifyRoute['handler'], keyless = false): Route => ({
    method: ['GET', 'HEAD'],
    url,
    family: 'storage',
    admit: keyless ? [] : admit,
    handler,
  });
  return [
    {
      method: 'POST',
      url: `${V1}/:bucket/*`,
      family: 'storage',
      admit,
      body: 'stream',
      handler: upload((call) => (call.headers['x-upsert'] === 'true' ? 'upsert' : 'create')),
    },
    {
      method: 'PUT',
      url: `${V1}/:bucket/*`,
      family: 'storage',
      admit,
      body: 'stream',
      handler: upload(() => 'replace'),
    },
    get(`${V1}/:bucket/*`, authenticated(false)),
    get(`${V1}/authenticated/:bucket/*`, authenticated(false)),
    get(`${V1}/public/:bucket/*`, publicly(false)),
    get(`${V1}/sign/:bucket/*`, signed(false), true),
    get(`${RENDER}/authenticated/:bucket/*`, authenticated(true)),
    get(`${RENDER}/public/:bucket/*`, publicly(true)),
    get(`${RENDER}/sign/:bucket/*`, signed(true), true),
    {
      method: 'PUT',
      url: `${V1}/upload/sign/:bucket/*`,
      family: 'storage',
      admit: [],
      body: 'stream',
      handler: async (call, request, reply) => {
        reply.header('Connection', 'close');
        const bucketName = call.params.bucket ?? '';
        const claims = await storage.signer.verify(call.query.token, bucketName, pathOf(call).normalize('NFC'), true);
        const bucket = await findBucketOf(storage, claims.a, bucketName);
        const source = await uploadSourceOf(storage, bucket, request);
        const mode = claims.x ? 'upsert' : 'create';
        return uploadObject(storage, accountActor(claims.a), bucket.name, pathOf(call), source, mode);
      },
    },
    json('POST', `${V1}/upload/sign/:bucket/*`, (call) =>
      signUpload(storage, actorOfCall(call), call.params.bucket, pathOf(call), call.headers['x-upsert'] === 'true'),
    ),
    json('GET', `${V1}/info/:bucket/*`, async (call) => {
      const actor = actorOfCall(call);
      const bucket = await findBucketOf(storage, actor.accountId, call.params.bucket);
      return objectInfo(await readableObject(storage, actor, bucket, pathOf(call)), bucket);
    }),
    json('POST', `${V1}/sign/:bucket/*`, (call) =>
      signObject(storage, actorOfCall(call), call.params.bucket, pathOf(call), call.body),
    ),
    json('POST', `${V1}/sign/:bucket`, (call) =>
      signObjects(storage, actorOfCall(call), call.params.bucket, call.body),
    ),
    json('POST', `${V1}/list/:bucket`, (call) =>
      listObjects(storage, actorOfCall(call), call.params.bucket, call.body),
    ),
    json('POST', `${V1}/list-v2/:bucket`, (call) =>
      listObjectsV2(storage, actorOfCall(call), call.params.bucket, call.body),
    ),
    json('POST', `${V1}/move`, (call) => moveObject(storage, actorOfCall(call), call.body)),
    json('POST', `${V1}/copy`, (call) => copyObject(storage, actorOfCall(call), call.body)),
    json('DELETE', `${V1}/:bucket`, (call) => removeObjects(storage, actorOfCall(call), call.params.bucket, call.body)),
    json('DELETE', `${V1}/:bucket/*`, async (call) => {
      const removed = await removeObjects(storage, actorOfCall(call), call.params.bucket, { prefixes: [pathOf(call)] });
      if (removed.length === 0) throw objectNotFound();
      return { message: 'Successfully deleted' };
    }),
  ];
}
