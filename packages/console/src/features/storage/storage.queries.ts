import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import type { BucketAccess } from './storage-rules';

// The Storage page talks to /storage/v1 with supabase-js, signed in as the console's account: the same API an app
// uses, so what the page shows is what an app sees.

const FALLBACK = 'Something went wrong. Please try again.';

/** storageKeys are the page's query keys. */
export const storageKeys = {
  buckets: ['storage', 'buckets'] as const,
  objects: (bucket: string, prefix: string) => ['storage', 'objects', bucket, prefix] as const,
};

export const failed = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

// supabase-js answers {data, error}; the queries want a value or a thrown error.
export const unwrap = <T>({ data, error }: { data: T | null; error: unknown }): T => {
  if (error) throw error;
  return data as T;
};

/** useBucketsQuery lists the account's buckets. */
export function useBucketsQuery() {
  return useQuery({
    queryKey: storageKeys.buckets,
    queryFn: async () => unwrap(await getSupabase().storage.listBuckets()),
  });
}

/** BucketSettings are a bucket's editable settings. */
export interface BucketSettings {
  isPublic: boolean;
  /** fileSizeLimit in bytes, or null for the instance's limit. */
  fileSizeLimit: number | null;
  /** allowedMimeTypes such as image/*, or null for any. */
  allowedMimeTypes: string[] | null;
}

/** useUpdateBucketMutation changes a bucket's public flag, size limit and allowed types. */
export function useUpdateBucketMutation(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: BucketSettings) =>
      unwrap(
        await getSupabase().storage.updateBucket(name, {
          public: settings.isPublic,
          fileSizeLimit: settings.fileSizeLimit,
          allowedMimeTypes: settings.allowedMimeTypes,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storageKeys.buckets });
      showToast({ title: 'Bucket updated', description: `${name}'s settings are saved.`, variant: 'success' });
    },
    onError: failed('Failed to update bucket'),
  });
}

/**
 * useUpdateBucketAccessMutation saves a bucket's rules with the console's own call (PATCH /api/storage/buckets/:name
 * {access}), which the activity feed records like every bucket change.
 */
export function useUpdateBucketAccessMutation(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (access: BucketAccess) =>
      apiJson(z.object({ name: z.string() }), 'PATCH', `/api/storage/buckets/${encodeURIComponent(name)}`, { access }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storageKeys.buckets });
      showToast({
        title: 'Access rules saved',
        description: `The users of your app now meet the new rules of ${name}.`,
        variant: 'success',
      });
    },
    onError: failed('Failed to save access rules'),
  });
}

/** useMoveMutation moves (renames) an object within its bucket. */
export function useMoveMutation(bucket: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ from, to }: { from: string; to: string }) =>
      unwrap(await getSupabase().storage.from(bucket).move(from, to)),
    onSuccess: (_data, { to }) => {
      void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', bucket] });
      showToast({ title: 'File moved', description: `It is now ${to}.`, variant: 'success' });
    },
    onError: failed('Failed to move file'),
  });
}

/**
 * uploadWithProgress stores one file (replacing one of the same name) and reports its progress from 0 to 1.
 * supabase-js's upload has no progress, so this is the same request made with XMLHttpRequest, whose upload
 * events give it; it resolves or rejects with the server's message.
 */
export async function uploadWithProgress(
  bucket: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const token = (await getSupabase().auth.getSession()).data.session?.access_token ?? '';
  const url = `${window.location.origin}/storage/v1/object/${encodeURIComponent(bucket)}/${path
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`;
  await new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('authorization', `Bearer ${token}`);
    request.setRequestHeader('x-upsert', 'true');
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let message = `The server answered ${request.status}`;
      try {
        message = (JSON.parse(request.responseText) as { message?: string }).message ?? message;
      } catch {
        // Not JSON: the status says enough.
      }
      reject(new Error(message));
    };
    request.onerror = () => reject(new Error('The connection was lost during the upload'));
    request.send(file);
  });
}

/** useCreateBucketMutation creates a bucket with its public flag and limits. */
export function useCreateBucketMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string } & BucketSettings) =>
      unwrap(
        await getSupabase().storage.createBucket(input.name, {
          public: input.isPublic,
          fileSizeLimit: input.fileSizeLimit,
          allowedMimeTypes: input.allowedMimeTypes,
        }),
      ),
    onSuccess: (_data, input) => {
      void queryClient.invalidateQueries({ queryKey: storageKeys.buckets });
      showToast({ title: 'Bucket created', description: `${input.name} is ready for files.`, variant: 'success' });
    },
    onError: failed('Failed to create bucket'),
  });
}

/** useDeleteBucketMutation empties a bucket and deletes it. */
export function useDeleteBucketMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      unwrap(await getSupabase().storage.emptyBucket(name));
      unwrap(await getSupabase().storage.deleteBucket(name));
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['storage'] }),
    onError: failed('Failed to delete bucket'),
  });
}

/** useEmptyBucketMutation deletes every file of a bucket, keeping the bucket and its settings. */
export function useEmptyBucketMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => unwrap(await getSupabase().storage.emptyBucket(name)),
    onSuccess: (_data, name) => {
      void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', name] });
      showToast({ title: 'Bucket emptied', description: `Every file of ${name} is deleted.`, variant: 'success' });
    },
    onError: failed('Failed to empty bucket'),
  });
}

/** publicUrlOf is a public bucket's keyless link to an object (/object/public/…), as supabase-js builds it. */
export const publicUrlOf = (bucket: string, path: string) =>
  getSupabase().storage.from(bucket).getPublicUrl(path).data.publicUrl;

/** useRemoveMutation deletes objects by path (the server takes up to 1,000 a call). */
export function useRemoveMutation(bucket: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (paths: string[]) => {
      for (let at = 0; at < paths.length; at += 1000) {
        unwrap(
          await getSupabase()
            .storage.from(bucket)
            .remove(paths.slice(at, at + 1000)),
        );
      }
    },
    onSuccess: (_data, paths) => {
      void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', bucket] });
      if (paths.length > 1) {
        showToast({ title: 'Files deleted', description: `${paths.length} files are deleted.`, variant: 'success' });
      }
    },
    onError: failed('Failed to delete files'),
  });
}

/** signedUrlOf signs an object's download URL for `seconds` (an hour by default). */
export async function signedUrlOf(bucket: string, path: string, seconds = 3600): Promise<string> {
  return unwrap(await getSupabase().storage.from(bucket).createSignedUrl(path, seconds)).signedUrl;
}

/**
 * usePreviewQuery reads a file's preview through a short signed URL: the URL alone, or with `textBytes` the first
 * that many bytes as text.
 */
export function usePreviewQuery(bucket: string, path: string, textBytes: number | null) {
  return useQuery({
    queryKey: ['storage', 'preview', bucket, path],
    queryFn: async () => {
      const url = await signedUrlOf(bucket, path, 600);
      if (textBytes === null) return { url, text: null };
      const res = await fetch(url, { headers: { range: `bytes=0-${textBytes - 1}` } });
      if (!res.ok && res.status !== 206) throw new Error(`The file could not be read (${res.status})`);
      return { url, text: await res.text() };
    },
    staleTime: 60_000,
  });
}
