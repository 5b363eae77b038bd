import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Pause, Play, Upload, XCircle } from 'lucide-react';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { showToast } from '@/lib/toast';
import { uploadWithProgress } from './storage.queries';
import { RESUMABLE_THRESHOLD, type ResumableUpload, uploadResumable } from './storage-resumable';

// Uploads into the open folder, by dropping files on the file browser or with the picker: one line per file with
// its own progress bar, and the server's reason when one fails (over the size limit, a type the bucket refuses).
// Files over RESUMABLE_THRESHOLD upload resumably (storage-resumable.ts), and their line can pause and resume.

interface UploadLine {
  key: string;
  name: string;
  progress: number;
  error: string | null;
  done: boolean;
  /** resumable: sent with TUS, so it can pause; paused: stopped by the person. */
  resumable: boolean;
  paused: boolean;
}

/** useUploads runs a folder's uploads one file after another and keeps a line per file. */
export function useUploads(bucket: string, prefix: string) {
  const queryClient = useQueryClient();
  const [lines, setLines] = useState<UploadLine[]>([]);
  const running = useRef(new Map<string, ResumableUpload>());
  const patch = (key: string, change: Partial<UploadLine>) =>
    setLines((all) => all.map((line) => (line.key === key ? { ...line, ...change } : line)));
  const start = async (files: File[]) => {
    const batch = files.map((file, index) => ({
      key: `${Date.now()}-${index}-${file.name}`,
      name: file.name,
      progress: 0,
      error: null,
      done: false,
      resumable: file.size > RESUMABLE_THRESHOLD,
      paused: false,
    }));
    setLines((all) => [...all.filter((line) => !line.done || line.error), ...batch]);
    let stored = 0;
    for (const [index, file] of files.entries()) {
      const line = batch[index];
      if (!line) continue;
      const path = prefix ? `${prefix}/${file.name}` : file.name;
      const onProgress = (progress: number) => patch(line.key, { progress });
      try {
        if (line.resumable) {
          const upload = uploadResumable(bucket, path, file, onProgress);
          running.current.set(line.key, upload);
          await upload.done.finally(() => running.current.delete(line.key));
        } else {
          await uploadWithProgress(bucket, path, file, onProgress);
        }
        patch(line.key, { done: true, progress: 1, paused: false });
        stored++;
      } catch (error) {
        patch(line.key, { done: true, error: error instanceof Error ? error.message : String(error) });
      }
    }
    void queryClient.invalidateQueries({ queryKey: ['storage', 'objects', bucket] });
    if (stored > 0) showToast({ title: 'Uploaded', description: `${stored} file(s) stored.`, variant: 'success' });
    if (stored < files.length) {
      showToast({
        title: 'Upload failed',
        description: `${files.length - stored} file(s) were not stored.`,
        variant: 'destructive',
      });
    }
  };
  const busy = lines.some((line) => !line.done);
  const pause = (key: string, paused: boolean) => {
    const upload = running.current.get(key);
    if (!upload) return;
    if (paused) upload.pause();
    else upload.resume();
    patch(key, { paused });
  };
  return { lines, start: (files: File[]) => void start(files), busy, clear: () => setLines([]), pause };
}

/** UploadButton opens the file picker. */
export function UploadButton({ onFiles, busy }: { onFiles: (files: File[]) => void; busy: boolean }) {
  return (
    <Button asChild variant="outline" size="sm">
      <label>
        <Upload />
        {busy ? 'Uploading…' : 'Upload files'}
        <input
          type="file"
          multiple
          className="sr-only"
          aria-label="Upload files"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            if (files.length > 0) onFiles(files);
            e.target.value = '';
          }}
        />
      </label>
    </Button>
  );
}

/** DropZone takes files dropped anywhere on its children and shows where they will land while dragged over. */
export function DropZone({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const [over, setOver] = useState(false);
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  return (
    <section
      aria-label="Drop files here to upload"
      className={cn('relative', over && 'outline-2 outline-dashed outline-primary -outline-offset-4')}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(false);
        const files = Array.from(event.dataTransfer.files);
        if (files.length > 0) onFiles(files);
      }}
    >
      {children}
      {over && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center bg-background/80 text-sm font-medium">
          Drop to upload into this folder
        </div>
      )}
    </section>
  );
}

/** UploadList shows each file's progress, or why it failed. */
export function UploadList({
  lines,
  onClear,
  onPause,
}: {
  lines: UploadLine[];
  onClear: () => void;
  onPause: (key: string, paused: boolean) => void;
}) {
  if (lines.length === 0) return null;
  return (
    <div className="grid gap-2 border-b p-3">
      <div className="flex items-center justify-between text-sm font-medium">
        <span>Uploads</span>
        {lines.every((line) => line.done) && (
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear
          </Button>
        )}
      </div>
      <ul aria-label="Uploads" className="grid gap-2">
        {lines.map((line) => (
          <li key={line.key} className="grid gap-1 text-sm">
            <div className="flex items-center justify-between gap-2">
              <span className="[overflow-wrap:anywhere]">{line.name}</span>
              {line.error ? (
                <XCircle aria-label="Failed" className="size-4 shrink-0 text-destructive" />
              ) : line.done ? (
                <CheckCircle2 aria-label="Stored" className="size-4 shrink-0 text-success" />
              ) : (
                <span className="flex shrink-0 items-center gap-1 text-muted-foreground">
                  {line.paused ? 'Paused' : `${Math.round(line.progress * 100)}%`}
                  {line.resumable && (
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`${line.paused ? 'Resume' : 'Pause'} upload of ${line.name}`}
                      onClick={() => onPause(line.key, !line.paused)}
                    >
                      {line.paused ? <Play /> : <Pause />}
                    </Button>
                  )}
                </span>
              )}
            </div>
            <div
              role="progressbar"
              aria-label={`Upload of ${line.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(line.progress * 100)}
              className="h-1.5 overflow-hidden rounded bg-muted"
            >
              <div
                className={cn('h-full transition-[width]', line.error ? 'bg-destructive' : 'bg-primary')}
                style={{ width: `${Math.round((line.error ? 1 : line.progress) * 100)}%` }}
              />
            </div>
            {line.error && <p className="text-destructive text-xs">{line.error}</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}
