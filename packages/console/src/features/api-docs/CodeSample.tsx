import { CopyButton } from '@/components/ui/copy-button';
import { CodeBlock } from './EndpointList';

/** CodeSample is a titled block of code with a copy button in its header. */
export function CodeSample({ code, label, title = label }: { code: string; label: string; title?: string }) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg border">
      <figcaption className="flex min-h-10 items-center justify-between gap-2 border-b bg-muted/60 py-1 pr-1 pl-3">
        <span className="truncate text-xs font-medium text-muted-foreground">{title}</span>
        <CopyButton value={code} label={`Copy ${label}`} variant="ghost" />
      </figcaption>
      <CodeBlock label={label} className="rounded-none border-0 bg-muted/25">
        {code}
      </CodeBlock>
    </figure>
  );
}
