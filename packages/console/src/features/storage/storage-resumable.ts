import { DetailedError, Upload } from 'tus-js-client';
import { getSupabase } from '@/lib/supabase';

// Large files upload resumably with the TUS protocol (tus-js-client, as supabase-js documents it) at
// /storage/v1/upload/resumable: in 6 MB chunks (Supabase's chunk size), each retried after a failed request from the
// offset the server reports, and a paused upload — or one picked again after a reload, remembered in local storage
// by the file's fingerprint — continues where it stopped instead of starting over.

/** RESUMABLE_THRESHOLD is the size above which a file uploads resumably (6 MB, as Supabase recommends). */
export const RESUMABLE_THRESHOLD = 6 * 1024 * 1024;
/** CHUNK_SIZE is the bytes of one PATCH. */
export const CHUNK_SIZE = 6 * 1024 * 1024;
// Waits before each retry of a failed request; then the upload fails with the reason.
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000];

/** ResumableUpload is one running upload: it settles when the file is stored or fails; pause and resume it. */
export interface ResumableUpload {
  done: Promise<void>;
  pause(): void;
  resume(): void;
}

/** reasonOf reads the server's message from a failed TUS request (Supabase's `{message}`), else the error's. */
function reasonOf(error: Error): string {
  if (error instanceof DetailedError && error.originalResponse) {
    const status = error.originalResponse.getStatus();
    try {
      const body = JSON.parse(error.originalResponse.getBody()) as { message?: unknown };
      if (typeof body.message === 'string') return body.message;
    } catch {
      // Not JSON: say the status.
    }
    return `The server answered ${status}`;
  }
  return 'The connection was lost during the upload';
}

/** uploadResumable starts storing `file` at `path` (replacing a file of that name), reporting progress from 0 to 1. */
export function uploadResumable(
  bucket: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): ResumableUpload {
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const upload = new Upload(file, {
    endpoint: `${window.location.origin}/storage/v1/upload/resumable`,
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    removeFingerprintOnSuccess: true,
    // The same file picked for another bucket or folder is another upload (tus-js-client's own fingerprint is the
    // file's name, type, size and date only, and would continue the first one under its name).
    fingerprint: async (picked: File) =>
      JSON.stringify(['basalt-storage', bucket, path, picked.size, picked.type, picked.lastModified]),
    headers: { 'x-upsert': 'true' },
    metadata: {
      bucketName: bucket,
      objectName: path,
      contentType: file.type || 'application/octet-stream',
      cacheControl: '3600',
    },
    // Each request carries the session's current token: an upload may outlast one.
    onBeforeRequest: async (request) => {
      const token = (await getSupabase().auth.getSession()).data.session?.access_token ?? '';
      request.setHeader('authorization', `Bearer ${token}`);
    },
    onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 0),
    onSuccess: () => {
      onProgress(1);
      settle?.resolve();
    },
    onError: (error) => settle?.reject(new Error(reasonOf(error))),
  });
  const start = async () => {
    const previous = await upload.findPreviousUploads();
    const last = previous[0];
    if (last) upload.resumeFromPreviousUpload(last);
    upload.start();
  };
  start().catch((error: unknown) => settle?.reject(error instanceof Error ? error : new Error(String(error))));
  return {
    done,
    // abort(false) stops sending and keeps the upload on the server, so start() continues from its offset.
    pause: () => void upload.abort(false),
    resume: () => upload.start(),
  };
}
