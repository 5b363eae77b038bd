// File storage's tables (features/storage).

/** StorageBucketsTable holds one row per bucket of an account. */
export interface StorageBucketsTable {
  id: string;
  account_id: string;
  name: string;
  /** 1: objects are readable by anyone at /object/public/…. */
  public: number;
  /** The largest object in bytes, or null for the instance's limit. */
  file_size_limit: number | string | null;
  /** JSON array of MIME types (wildcards like image/*), or null for any. */
  allowed_mime_types: string | null;
  /** JSON object: the app users' access per operation (features/storage/storage-rules.ts). */
  access: string;
  created_at: string;
  updated_at: string;
}

/** StorageObjectsTable holds one row per stored object; its bytes are in the blob store under `version`. */
export interface StorageObjectsTable {
  id: string;
  bucket_id: string;
  account_id: string;
  name: string;
  /** The app end user who stored it, or null for the account. */
  owner: string | null;
  size: number | string;
  mime_type: string;
  cache_control: string;
  etag: string;
  version: string;
  /** JSON object of the client's own metadata, or null. */
  user_metadata: string | null;
  created_at: string;
  updated_at: string;
}

/** StorageUsageTable keeps each account's stored bytes and objects, updated by every object write. */
export interface StorageUsageTable {
  account_id: string;
  bytes: number | string;
  objects: number | string;
}

/** StorageResumableUploadsTable names each unfinished resumable upload, for its expiry on any node. */
export interface StorageResumableUploadsTable {
  id: string;
  account_id: string;
  /** The upload's declared length in bytes. */
  size: number | string;
  /** The bytes received so far, in `chunks` blobs (`<account>/r-<id>-<n>`). */
  upload_offset: number | string;
  chunks: number;
  /** JSON object of the TUS metadata (bucketName, objectName, …, and who started it). */
  metadata: string;
  expires_at: string;
  created_at: string;
}
