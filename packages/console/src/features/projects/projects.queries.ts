import {
  type AddMemberInput,
  type CreateProjectInput,
  type Project,
  type ProjectRole,
  projectListSchema,
  projectMemberListSchema,
  projectMemberSchema,
  projectSchema,
  projectTableSchema,
  roleRank,
  sharedTableSchema,
} from '@basalt/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { projectKeys } from './projects.keys';

// Projects, members, linked and shared tables.

const FALLBACK = 'Something went wrong. Please try again.';

const failure = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

/** useProjectsQuery lists the caller's projects with its role in each. */
export function useProjectsQuery() {
  return useQuery({
    queryKey: projectKeys.list,
    queryFn: ({ signal }) => apiJson(projectListSchema, 'GET', '/api/projects', undefined, { signal }),
  });
}

/** useCreateProjectMutation creates a project (the caller is its OWNER). */
export function useCreateProjectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateProjectInput) => apiJson(projectSchema, 'POST', '/api/projects', input),
    retry: false,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.list });
      showToast({ title: 'Project created', variant: 'success' });
    },
    onError: failure('Failed to create project'),
  });
}

/** useMembersQuery lists a project's members. */
export function useMembersQuery(projectId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.members(projectId ?? ''),
    queryFn: ({ signal }) =>
      apiJson(projectMemberListSchema, 'GET', `/api/projects/${projectId}/members`, undefined, { signal }),
    enabled: Boolean(projectId),
  });
}

function refreshProject(queryClient: QueryClient, projectId: string) {
  void queryClient.invalidateQueries({ queryKey: projectKeys.project(projectId) });
  void queryClient.invalidateQueries({ queryKey: projectKeys.list });
  void queryClient.invalidateQueries({ queryKey: projectKeys.shared });
}

/** useAddMemberMutation invites an existing account by email or username. */
export function useAddMemberMutation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddMemberInput) =>
      apiJson(projectMemberSchema, 'POST', `/api/projects/${projectId}/members`, input),
    onSuccess: (member) => {
      refreshProject(queryClient, projectId);
      showToast({ title: 'Member added', description: `${member.username ?? member.email} is ${member.role}.` });
    },
    onError: failure('Failed to add member'),
  });
}

/** useChangeRoleMutation changes a member's role. */
export function useChangeRoleMutation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, role }: { accountId: string; role: ProjectRole }) =>
      apiJson(projectMemberSchema, 'PATCH', `/api/projects/${projectId}/members/${accountId}`, { role }),
    onSuccess: () => refreshProject(queryClient, projectId),
    onError: failure('Failed to change role'),
  });
}

/** useRemoveMemberMutation removes a member (or leaves, with one's own id). */
export function useRemoveMemberMutation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) =>
      apiJson(z.unknown(), 'DELETE', `/api/projects/${projectId}/members/${accountId}`),
    onSuccess: () => refreshProject(queryClient, projectId),
    onError: failure('Failed to remove member'),
  });
}

/** useProjectTablesQuery lists the tables linked to a project. */
export function useProjectTablesQuery(projectId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.tables(projectId ?? ''),
    queryFn: ({ signal }) =>
      apiJson(z.array(projectTableSchema), 'GET', `/api/projects/${projectId}/tables`, undefined, { signal }),
    enabled: Boolean(projectId),
  });
}

/** useLinkTableMutation links (or, with `unlink`, unlinks) one table. */
export function useLinkTableMutation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tableId, unlink }: { tableId: number; unlink?: boolean }) =>
      apiJson(z.unknown(), unlink ? 'DELETE' : 'POST', `/api/projects/${projectId}/tables/${tableId}`),
    onSuccess: () => refreshProject(queryClient, projectId),
    onError: failure('Failed to change the project’s tables'),
  });
}

/** useSharedTablesQuery lists tables other accounts share with the caller, with each project's name. */
export function useSharedTablesQuery() {
  return useQuery({
    queryKey: projectKeys.shared,
    queryFn: ({ signal }) => apiJson(z.array(sharedTableSchema), 'GET', '/api/shared-tables', undefined, { signal }),
  });
}

/**
 * useSharedTableRole tells whether a table is shared with the caller through a project, and its most powerful
 * role there (null for the caller's own tables).
 */
export function useSharedTableRole(tableId: number): { role: ProjectRole; projectName: string } | null {
  const shared = useSharedTablesQuery();
  const matches = (shared.data ?? []).filter((t) => t.id === tableId);
  if (matches.length === 0) return null;
  const best = matches.reduce((a, b) => (roleRank(b.role) < roleRank(a.role) ? b : a));
  return { role: best.role, projectName: best.projectName };
}

/** useDeleteProjectMutation deletes a project (OWNER). */
export function useDeleteProjectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (project: Project) => apiJson(z.unknown(), 'DELETE', `/api/projects/${project.id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: projectKeys.list }),
    onError: failure('Failed to delete project'),
  });
}
