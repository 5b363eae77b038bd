import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { LoadErrorState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { usePreviewQuery } from './storage.queries';

// A file's preview, read through a short signed URL (the browser fetches it like any link): images, PDF, audio and
// video in the browser's own viewers, text and JSON as text (the first 64 KB).

const TEXT_LIMIT = 64 * 1024;

/** previewKind says how a type is shown, or null when it is not. */
export function previewKind(type: string): 'image' | 'pdf' | 'text' | 'audio' | 'video' | null {
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || /json|xml|javascript|yaml|csv/.test(type)) return 'text';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return null;
}

function PreviewBody({ bucket, path, type }: { bucket: string; path: string; type: string }) {
  const kind = previewKind(type);
  const preview = usePreviewQuery(bucket, path, kind === 'text' ? TEXT_LIMIT : null);
  if (preview.isError) {
    return (
      <LoadErrorState title="Failed to load the preview" error={preview.error} onRetry={() => void preview.refetch()} />
    );
  }
  if (!preview.data) {
    return (
      <div className="grid place-items-center p-8">
        <Spinner />
      </div>
    );
  }
  const { url, text } = preview.data;
  switch (kind) {
    case 'image':
      return <img src={url} alt={path} className="mx-auto max-h-[60vh] max-w-full rounded object-contain" />;
    case 'pdf':
      return <iframe src={url} title={`PDF ${path}`} className="h-[60vh] w-full rounded border" />;
    case 'audio':
      // biome-ignore lint/a11y/useMediaCaption: a stored file has no captions to offer.
      return <audio src={url} controls className="w-full" />;
    case 'video':
      // biome-ignore lint/a11y/useMediaCaption: a stored file has no captions to offer.
      return <video src={url} controls className="max-h-[60vh] w-full" />;
    case 'text':
      return (
        <pre
          data-testid="text-preview"
          className="max-h-[60vh] overflow-auto rounded bg-muted p-3 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]"
        >
          {text}
        </pre>
      );
    default:
      return (
        <p className="text-muted-foreground text-sm">No preview for {type || 'this type'}. Download it instead.</p>
      );
  }
}

/** PreviewDialog shows a file's preview while `path` is set. */
export function PreviewDialog({
  bucket,
  file,
  onClose,
}: {
  bucket: string;
  file: { path: string; type: string; size: string } | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={file !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">{file?.path}</DialogTitle>
          <DialogDescription>
            {file?.type || 'Unknown type'} · {file?.size}
          </DialogDescription>
        </DialogHeader>
        {file && <PreviewBody bucket={bucket} path={file.path} type={file.type} />}
      </DialogContent>
    </Dialog>
  );
}
