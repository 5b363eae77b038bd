import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import type { BucketAccess } from './storage-rules';

// The Storage page talks to /storage/v1 with supabase-js, signed in as the console's account: the same API an app
// uses, so what the page shows is what an app sees.

// One entry of a listing, as supabase-js types it (its FileObject type is not exported by supabase-js).
type FileObject = Awaited<
  ReturnType<ReturnType<ReturnType<typeof getSupabase>['storage']['from']>['list']>
>['data'] extends (infer T)[] | null
  ? T
  : never;

const FALLBACK = 'Something went wrong. Please try again.';

/** storageKeys are the page's query keys. */
export const storageKeys = {
  buckets: ['storage', 'buckets'] as const,
  objects: (bucket: string, prefix: string) => ['storage', 'objects', bucket, prefix] as const,
};

const failed = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

// supabase-js answers {data, error}; the queries want a value or a thrown error.
const unwrap = <T>({ data, error }: { data: T | null; error: unknown }): T => {
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

/** PAGE_SIZE is how many entries a page of the file browser lists (the spec's list default). */
export const PAGE_SIZE = 100;

/** FileSort is an order the file browser lists in: a column Supabase's list sorts by, and a direction. */
export interface FileSort {
  column: 'name' | 'updated_at';
  order: 'asc' | 'desc';
}

/**
 * useObjectsQuery lists a bucket's entries under a folder, PAGE_SIZE at a time ("Load more" asks for the next),
 * those whose name starts with `search` when given, in `sort`'s order; folders come as entries without an id.
 */
export function useObjectsQuery(
  bucket: string | null,
  prefix: string,
  search = '',
  sort: FileSort = { column: 'name', order: 'asc' },
) {
  return useInfiniteQuery({
    queryKey: [...storageKeys.objects(bucket ?? '', prefix), search, sort.column, sort.order],
    enabled: bucket !== null,
    initialPageParam: 0,
    getNextPageParam: (last: FileObject[], _all, offset: number) =>
      last.length === PAGE_SIZE ? offset + PAGE_SIZE : undefined,
    queryFn: async ({ pageParam }): Promise<FileObject[]> =>
      unwrap(
        await getSupabase()
          .storage.from(bucket ?? '')
          .list(prefix, {
            limit: PAGE_SIZE,
            offset: pageParam,
            search: search || undefined,
            sortBy: sort,
          }),
      ),
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

/** useRemoveMutation deletes one object. */
export function useRemoveMutation(bucket: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (path: string) => unwrap(await getSupabase().storage.from(bucket).remove([path])),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', bucket] }),
    onError: failed('Failed to delete file'),
  });
}

/** signedUrlOf signs an object's download URL for `seconds` (an hour by default). */
export async function signedUrlOf(bucket: string, path: string, seconds = 3600): Promise<string> {
  return unwrap(await getSupabase().storage.from(bucket).createSignedUrl(path, seconds)).signedUrl;
}
