import { type EdgeFunction, FUNCTION_LIMITS } from '@basalt/shared';
import { Pencil, Rocket, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatDateTime } from '@/components/ui/relative-time';

/** codePreview is the first 150 characters of a function's code. */
export function codePreview(code: string): string {
  return code.length > FUNCTION_LIMITS.previewChars ? `${code.slice(0, FUNCTION_LIMITS.previewChars)}…` : code;
}

/** FunctionCard is one function of the grid: name, badge, route, code preview, last deploy, and its actions. */
export function FunctionCard({
  fn,
  deploying,
  onEdit,
  onDeploy,
  onDelete,
}: {
  fn: EdgeFunction;
  deploying: boolean;
  onEdit: () => void;
  onDeploy: () => void;
  onDelete: () => void;
}) {
  return (
    <Card role="article" className="flex min-w-0 flex-col gap-3 p-4" aria-label={`Edge function ${fn.name}`}>
      <div className="flex items-start justify-between gap-2">
        <h2 className="min-w-0 font-semibold break-all">{fn.name}</h2>
        {/* An active function answers only once deployed: before that its route is a 404. */}
        {fn.isActive && !fn.lastDeployed ? (
          <Badge variant="warning" title="Deploy it to make its route answer">
            Not deployed
          </Badge>
        ) : (
          <Badge variant={fn.isActive ? 'default' : 'secondary'}>{fn.isActive ? 'Active' : 'Inactive'}</Badge>
        )}
      </div>
      <code className="truncate font-mono text-xs text-muted-foreground" title={fn.route}>
        {fn.route}
      </code>
      <pre className="h-24 overflow-hidden rounded-md border bg-muted/40 p-2 font-mono text-[11px] leading-relaxed break-all whitespace-pre-wrap text-muted-foreground">
        {codePreview(fn.code)}
      </pre>
      <p className="text-xs text-muted-foreground">
        Last deployed: {fn.lastDeployed ? formatDateTime(fn.lastDeployed) : 'Never'}
      </p>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil />
          Edit
        </Button>
        <Button size="sm" onClick={onDeploy} disabled={deploying}>
          <Rocket />
          {deploying ? 'Deploying...' : 'Deploy'}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          aria-label={`Delete ${fn.name}`}
          onClick={onDelete}
        >
          <Trash2 />
          Delete
        </Button>
      </div>
    </Card>
  );
}
