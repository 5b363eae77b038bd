import { PROJECT_ROLES, type ProjectRole, roleCan, roleRank } from '@basalt/shared';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/auth-context';
import { useApiTablesQuery } from '@/features/tables/tables.queries';
import {
  useAddMemberMutation,
  useChangeRoleMutation,
  useLinkTableMutation,
  useMembersQuery,
  useProjectsQuery,
  useProjectTablesQuery,
  useRemoveMemberMutation,
} from './projects.queries';

// A project's settings: its members and their roles, and its linked tables. What the caller's role
// cannot do is not offered (the server refuses it anyway); the caller's role is shown.

function Members({ projectId, role }: { projectId: string; role: ProjectRole }) {
  const { user } = useAuth();
  const members = useMembersQuery(projectId);
  const add = useAddMemberMutation(projectId);
  const change = useChangeRoleMutation(projectId);
  const remove = useRemoveMemberMutation(projectId);
  const [login, setLogin] = useState('');
  const [newRole, setNewRole] = useState<ProjectRole>('VIEWER');
  const manages = roleCan(role, 'members.manage');
  const grantable = PROJECT_ROLES.filter((r) => roleRank(r) >= roleRank(role));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {manages && (
          <form
            className="flex flex-col gap-2 sm:flex-row"
            onSubmit={(event) => {
              event.preventDefault();
              const value = login.trim();
              add.mutate(value.includes('@') ? { email: value, role: newRole } : { username: value, role: newRole }, {
                onSuccess: () => setLogin(''),
              });
            }}
          >
            <Input
              aria-label="Email or username"
              placeholder="Email or username"
              value={login}
              onChange={(event) => setLogin(event.target.value)}
            />
            <NativeSelect
              aria-label="Role"
              containerClassName="shrink-0 sm:w-44"
              value={newRole}
              onChange={(event) => setNewRole(event.target.value as ProjectRole)}
            >
              {grantable.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </NativeSelect>
            <Button type="submit" disabled={!login.trim() || add.isPending}>
              Invite
            </Button>
          </form>
        )}
        {members.isError ? (
          <LoadErrorState title="Failed to load members" error={members.error} onRetry={() => void members.refetch()} />
        ) : (
          <ul className="divide-y rounded-md border">
            {(members.data ?? []).map((member) => {
              const editable = manages && roleRank(member.role) >= roleRank(role);
              const self = member.accountId === user?.id;
              return (
                <li key={member.accountId} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
                  <div className="min-w-0 flex-1">
                    <div className="truncate font-medium">{member.username ?? member.email}</div>
                    <div className="truncate text-xs text-muted-foreground">{member.email}</div>
                  </div>
                  {editable && !self ? (
                    <NativeSelect
                      aria-label={`Role of ${member.username ?? member.email}`}
                      containerClassName="w-36"
                      value={member.role}
                      onChange={(event) =>
                        change.mutate({ accountId: member.accountId, role: event.target.value as ProjectRole })
                      }
                    >
                      {grantable.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </NativeSelect>
                  ) : (
                    <Badge variant="outline">{member.role}</Badge>
                  )}
                  {(self || (editable && member.role !== 'OWNER')) && (
                    <Button size="sm" variant="ghost" onClick={() => remove.mutate(member.accountId)}>
                      {self ? 'Leave' : 'Remove'}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function LinkedTables({ projectId, role }: { projectId: string; role: ProjectRole }) {
  const { user } = useAuth();
  const linked = useProjectTablesQuery(projectId);
  const own = useApiTablesQuery();
  const link = useLinkTableMutation(projectId);
  const [choice, setChoice] = useState('');
  const links = roleCan(role, 'schema.write');
  const linkedIds = new Set((linked.data ?? []).map((t) => t.id));
  const candidates = (own.data ?? []).filter((t) => !linkedIds.has(t.id));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Linked tables</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {links && candidates.length > 0 && (
          <div className="flex flex-col gap-2 sm:flex-row">
            <NativeSelect aria-label="Table to link" value={choice} onChange={(event) => setChoice(event.target.value)}>
              <option value="">Choose one of your tables…</option>
              {candidates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
            <Button
              disabled={!choice}
              onClick={() => link.mutate({ tableId: Number(choice) }, { onSuccess: () => setChoice('') })}
            >
              Link table
            </Button>
          </div>
        )}
        {(linked.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No tables are linked to this project yet.</p>
        ) : (
          <ul className="divide-y rounded-md border">
            {(linked.data ?? []).map((table) => (
              <li key={table.id} className="flex items-center gap-2 px-3 py-2 text-sm">
                <Link to={`/tables/${table.id}`} className="min-w-0 flex-1 truncate font-medium hover:underline">
                  {table.name}
                </Link>
                <span className="text-xs text-muted-foreground">by {table.ownerName ?? 'someone'}</span>
                {(links || table.ownerId === user?.id) && (
                  <Button size="sm" variant="ghost" onClick={() => link.mutate({ tableId: table.id, unlink: true })}>
                    Unlink
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** ProjectSettingsPage is /projects/:id/settings. */
export function ProjectSettingsPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const projects = useProjectsQuery();
  const project = projects.data?.find((p) => p.id === id);
  if (projects.isPending) return <CenteredSpinner label="Loading project" />;
  if (projects.isError)
    return (
      <LoadErrorState title="Failed to fetch projects" error={projects.error} onRetry={() => void projects.refetch()} />
    );
  if (!project) {
    return <LoadErrorState title="Project not found" error={null} onRetry={() => navigate('/schema-editor')} />;
  }
  return (
    <div className="grid gap-6">
      <PageHeader
        title={project.name}
        description={project.description ?? 'Project settings: members, roles and linked tables.'}
        actions={
          <>
            <NativeSelect
              aria-label="Switch project"
              containerClassName="w-48"
              value={project.id}
              onChange={(event) => navigate(`/projects/${event.target.value}/settings`)}
            >
              {(projects.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
            <Badge>Your role: {project.role}</Badge>
            <Button asChild size="sm" variant="outline">
              <Link to={`/schema-editor?project=${project.id}`}>Open Schema Editor</Link>
            </Button>
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Members projectId={project.id} role={project.role} />
        <LinkedTables projectId={project.id} role={project.role} />
      </div>
    </div>
  );
}
