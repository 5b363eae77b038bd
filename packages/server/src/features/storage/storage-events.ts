// The events a committed change of storage publishes on the bus (db/bus): a bucket's settings or rules changed
// (every node forgets its cached copy at once), and objects were written or removed.

/** BucketChanged names a bucket created, changed or deleted. */
export interface BucketChanged {
  accountId: string;
  name: string;
}

/** ObjectsChanged names objects written or removed in a bucket (names only, never bytes). */
export interface ObjectsChanged {
  accountId: string;
  bucket: string;
  names: string[];
  kind: 'written' | 'removed';
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'storage.bucket.changed': BucketChanged;
    'storage.objects.changed': ObjectsChanged;
  }
}
