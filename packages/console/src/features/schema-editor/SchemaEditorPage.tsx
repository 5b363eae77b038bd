import { roleCan } from '@basalt/shared';
import { FolderPlus, Plus, Save, Settings, Wifi, WifiOff } from 'lucide-react';
import { useCallback, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/auth-context';
import { useProjectsQuery } from '@/features/projects/projects.queries';
import { cn } from '@/lib/cn';
import { DesignToTablesDialog } from './DesignToTablesDialog';
import { addTable } from './layout-edits';
import { PresenceAvatars } from './PresenceAvatars';
import { SchemaCanvas } from './SchemaCanvas';
import { useSchemaRoom } from './useSchemaRoom';

// The Schema Editor: a project selector, New Project,
// the canvas of one project's layout shared live with every member in its room, who is there, and the way from
// the design to real tables. Renders nothing without a signed-in user.

function ProjectsLoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <EmptyState
      title="Failed to load projects. Please try again."
      action={
        <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/** SchemaEditorPage is /schema-editor. */
export function SchemaEditorPage() {
  const { user } = useAuth();
  const projects = useProjectsQuery();
  const [params, setParams] = useSearchParams();
  const list = projects.data ?? [];
  const chosen = list.find((p) => p.id === params.get('project')) ?? list[0];
  const room = useSchemaRoom(chosen?.id);
  const role = room.role ?? chosen?.role ?? null;
  const canEdit = role !== null && roleCan(role, 'schema.write');
  const { edit, select } = room;

  useEffect(() => {
    if (chosen && params.get('project') !== chosen.id) setParams({ project: chosen.id }, { replace: true });
  }, [chosen, params, setParams]);

  const onEdit = useCallback((change: Parameters<typeof edit>[0]) => edit(change), [edit]);
  const onSelect = useCallback((ids: string[]) => select(ids), [select]);

  if (!user) return null;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4">
      <PageHeader
        title="Schema Editor"
        description="Design your schema visually, together."
        actions={
          <>
            {list.length > 0 && (
              <NativeSelect
                aria-label="Project"
                containerClassName="w-48"
                value={chosen?.id ?? ''}
                onChange={(event) => setParams({ project: event.target.value })}
              >
                {list.map((project) => (
                  <option key={project.id} value={project.id}>
                    {project.name}
                  </option>
                ))}
              </NativeSelect>
            )}
            {chosen && (
              <Button asChild variant="outline" size="sm">
                <Link to={`/projects/${chosen.id}/settings`}>
                  <Settings /> Settings
                </Link>
              </Button>
            )}
            <Button asChild size="sm">
              <Link to="/projects/new">
                <FolderPlus /> New Project
              </Link>
            </Button>
          </>
        }
      />
      {projects.isPending ? (
        <CenteredSpinner label="Loading projects" />
      ) : projects.isError ? (
        <ProjectsLoadFailed onRetry={() => void projects.refetch()} retrying={projects.isFetching} />
      ) : !chosen ? (
        <EmptyState
          icon={FolderPlus}
          title="No projects yet"
          description="A project holds a schema design that your team edits together."
          action={
            <Button asChild>
              <Link to="/projects/new">Create Your First Project</Link>
            </Button>
          }
        />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <Button size="sm" disabled={!canEdit} onClick={() => edit((elements) => addTable(elements))}>
              <Plus /> Add table
            </Button>
            <Button size="sm" variant="outline" disabled={!canEdit} onClick={() => void room.save()}>
              <Save /> Save
            </Button>
            <DesignToTablesDialog projectId={chosen.id} disabled={!canEdit} />
            <div className="ml-auto flex items-center gap-3">
              <PresenceAvatars users={room.users} />
              {role && <Badge variant="outline">{role}</Badge>}
              <span
                role="status"
                className={cn(
                  'flex items-center gap-1.5 text-sm font-medium',
                  room.status === 'connected' ? 'text-success' : 'text-muted-foreground',
                )}
              >
                {room.status === 'connected' ? <Wifi className="size-4" /> : <WifiOff className="size-4" />}
                {room.status === 'connected' ? 'Connected' : 'Disconnected'}
              </span>
            </div>
          </div>
          <div
            className="relative h-[calc(100dvh-15rem)] min-h-[420px] overflow-hidden rounded-lg border bg-card"
            data-testid="schema-canvas"
          >
            {room.loading ? (
              <CenteredSpinner label="Loading the layout" />
            ) : (
              <SchemaCanvas
                elements={room.elements}
                canEdit={canEdit}
                self={room.self}
                users={room.users}
                onEdit={onEdit}
                onSelect={onSelect}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}
