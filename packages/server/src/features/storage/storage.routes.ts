import { answer, type Call, type Method, type Route } from '../../http/routes/route.js';
import {
  createBucket,
  deleteBucket,
  emptyBucket,
  getBucket,
  listBuckets,
  updateBucket,
} from './storage-buckets.service.js';
import { actorOfCall, type StorageCallers, storageAdmission } from './storage-caller.js';
import type { Storage } from './storage-context.js';

// Supabase Storage's buckets (docs/storage.md):
//   GET    /storage/v1/bucket               the account's buckets
//   POST   /storage/v1/bucket               {id|name, public, file_size_limit, allowed_mime_types, access} → {name}
//   GET    /storage/v1/bucket/:id
//   PUT    /storage/v1/bucket/:id           {public, file_size_limit, allowed_mime_types, access}
//   POST   /storage/v1/bucket/:id/empty
//   DELETE /storage/v1/bucket/:id           409 while it holds objects
//   PATCH  /api/storage/buckets/:id         the console's: {access} (and the other settings)

/** storageRoutes are the buckets' routes; storageObjectRoutes (storage-objects.routes.ts) the objects'. */
export function storageRoutes(ctx: StorageCallers, storage: Storage): Route[] {
  const admit = storageAdmission(ctx);
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'storage',
    admit,
    handler,
  });
  const id = (call: Call) => call.params.id;
  return [
    route('GET', '/storage/v1/bucket', (call) => listBuckets(storage, actorOfCall(call))),
    route('POST', '/storage/v1/bucket', (call) => createBucket(storage, actorOfCall(call), call.body)),
    route('GET', '/storage/v1/bucket/:id', (call) => getBucket(storage, actorOfCall(call), id(call))),
    route('PUT', '/storage/v1/bucket/:id', (call) => updateBucket(storage, actorOfCall(call), id(call), call.body)),
    route('POST', '/storage/v1/bucket/:id/empty', (call) => emptyBucket(storage, actorOfCall(call), id(call))),
    route('DELETE', '/storage/v1/bucket/:id', (call) => deleteBucket(storage, actorOfCall(call), id(call))),
    {
      method: 'PATCH',
      url: '/api/storage/buckets/:id',
      family: 'console',
      admit: [ctx.callers.user],
      handler: async (call) => {
        await updateBucket(storage, call.actor, id(call), call.body);
        return answer(await getBucket(storage, call.actor, id(call)));
      },
    },
  ];
}
