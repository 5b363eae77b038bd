import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';

// The Storage page talks to /storage/v1 with supabase-js, signed in as the console's account: the same API an app
// uses, so what the page shows is what an app sees.

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

/** useObjectsQuery lists a bucket's entries under a folder (folders first come as entries without an id). */
export function useObjectsQuery(bucket: string | null, prefix: string) {
  return useQuery({
    queryKey: storageKeys.objects(bucket ?? '', prefix),
    enabled: bucket !== null,
    queryFn: async () =>
      unwrap(
        await getSupabase()
          .storage.from(bucket ?? '')
          .list(prefix, { limit: 1000, sortBy: { column: 'name', order: 'asc' } }),
      ),
  });
}

/** useCreateBucketMutation creates a bucket. */
export function useCreateBucketMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string; isPublic: boolean }) =>
      unwrap(await getSupabase().storage.createBucket(input.name, { public: input.isPublic })),
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

/** useUploadMutation uploads files into a bucket's folder. */
export function useUploadMutation(bucket: string, prefix: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (files: File[]) => {
      for (const file of files) {
        const path = prefix ? `${prefix}/${file.name}` : file.name;
        unwrap(await getSupabase().storage.from(bucket).upload(path, file, { upsert: true, contentType: file.type }));
      }
    },
    onSuccess: (_data, files) => {
      void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', bucket] });
      showToast({ title: 'Uploaded', description: `${files.length} file(s) stored.`, variant: 'success' });
    },
    onError: failed('Upload failed'),
  });
}

/** useRemoveMutation deletes one object. */
export function useRemoveMutation(bucket: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (path: string) => unwrap(await getSupabase().storage.from(bucket).remove([path])),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', bucket] }),
    onError: failed('Failed to delete file'),
  });
}

/** signedUrlOf signs an object's download URL for an hour. */
export async function signedUrlOf(bucket: string, path: string): Promise<string> {
  return unwrap(await getSupabase().storage.from(bucket).createSignedUrl(path, 3600)).signedUrl;
}
