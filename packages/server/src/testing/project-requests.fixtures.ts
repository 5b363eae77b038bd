import { expect } from 'vitest';
import type { ApiScenario } from './auth.fixtures.js';
import type { Member } from './projects.fixtures.js';
import { tableElement } from './room.fixtures.js';

// The projects API's bad requests, one row each: missing and malformed fields, wrong types, NUL, oversized
// layouts, unknown and foreign ids, roles that may not, missing or wrong credentials (projects.test.ts sends them
// and checks that none changed anything).

/** ProjectsWorld is what the scenarios name: the members and their projects, known once the suite set them up. */
export interface ProjectsWorld {
  alice: Member;
  bob: Member;
  carol: Member;
  projectId: string;
  foreignProject: string;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** badProjectRequests are the scenarios, for the world of one suite. */
export function badProjectRequests({ alice, bob, carol, projectId, foreignProject }: ProjectsWorld): ApiScenario[] {
  const as = (who: Member) => () => who.headers;
  return [
    { name: 'no credentials', method: 'GET', url: '/api/projects', status: 401 },
    {
      name: 'a wrong token',
      method: 'GET',
      url: '/api/projects',
      headers: { authorization: 'Bearer nope' },
      status: 401,
    },
    {
      name: 'a short name',
      method: 'POST',
      url: '/api/projects',
      headers: as(alice),
      json: { name: 'ab' },
      status: 400,
      expected: { message: 'Project name must be at least 3 characters' },
    },
    { name: 'no name', method: 'POST', url: '/api/projects', headers: as(alice), json: {}, status: 400 },
    {
      name: 'a numeric name',
      method: 'POST',
      url: '/api/projects',
      headers: as(alice),
      json: { name: 12345 },
      status: 400,
    },
    {
      name: 'a NUL in the name',
      method: 'POST',
      url: '/api/projects',
      headers: as(alice),
      json: { name: 'a\u0000bc' },
      status: 400,
    },
    {
      name: 'a body that is not JSON',
      method: 'POST',
      url: '/api/projects',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      body: '{',
      status: 400,
    },
    { name: 'an unknown project', method: 'GET', url: `/api/projects/${UNKNOWN}`, headers: as(alice), status: 404 },
    { name: 'a malformed project id', method: 'GET', url: '/api/projects/x-y', headers: as(alice), status: 404 },
    {
      name: 'a foreign project',
      method: 'GET',
      url: `/api/projects/${foreignProject}`,
      headers: as(alice),
      status: 404,
    },
    {
      name: 'a foreign project’s members',
      method: 'GET',
      url: `/api/projects/${foreignProject}/members`,
      headers: as(alice),
      status: 404,
    },
    {
      name: 'a foreign project’s layout',
      method: 'POST',
      url: `/api/projects/${foreignProject}/schema`,
      headers: as(alice),
      json: { layout: { elements: [] } },
      status: 404,
    },
    {
      name: 'an EDITOR renaming the project',
      method: 'PATCH',
      url: `/api/projects/${projectId}`,
      headers: as(bob),
      json: { name: 'Taken over' },
      status: 403,
      expected: { code: 'role_forbidden' },
    },
    {
      name: 'an EDITOR deleting the project',
      method: 'DELETE',
      url: `/api/projects/${projectId}`,
      headers: as(bob),
      status: 403,
    },
    {
      name: 'an EDITOR inviting',
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: as(bob),
      json: { email: carol.email },
      status: 403,
    },
    {
      name: 'an EDITOR saving a layout',
      method: 'POST',
      url: `/api/projects/${projectId}/schema`,
      headers: as(bob),
      json: { layout: { elements: [] } },
      status: 403,
      expected: { message: expect.stringContaining('(EDITOR)') },
    },
    {
      name: 'an unknown colour',
      method: 'PATCH',
      url: `/api/projects/${projectId}`,
      headers: as(alice),
      json: { color: 'blue' },
      status: 400,
    },
    {
      name: 'an unknown field',
      method: 'PATCH',
      url: `/api/projects/${projectId}`,
      headers: as(alice),
      json: { ownerId: bob.accountId },
      status: 400,
    },
    {
      name: 'an invitation without email or username',
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: as(alice),
      json: { role: 'ADMIN' },
      status: 400,
    },
    {
      name: 'an invitation with an unknown role',
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: as(alice),
      json: { email: carol.email, role: 'GOD' },
      status: 400,
    },
    {
      name: 'an invitation of nobody',
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: as(alice),
      json: { email: 'nobody@example.test' },
      status: 404,
    },
    {
      name: 'an invitation of a member',
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: as(alice),
      json: { username: 'BOB' },
      status: 409,
    },
    {
      name: 'a role change of a non-member',
      method: 'PATCH',
      url: `/api/projects/${projectId}/members/${carol.accountId}`,
      headers: as(alice),
      json: { role: 'ADMIN' },
      status: 404,
    },
    {
      name: 'the last owner stepping down',
      method: 'PATCH',
      url: `/api/projects/${projectId}/members/${alice.accountId}`,
      headers: as(alice),
      json: { role: 'VIEWER' },
      status: 409,
    },
    {
      name: 'the last owner leaving',
      method: 'DELETE',
      url: `/api/projects/${projectId}/members/${alice.accountId}`,
      headers: as(alice),
      status: 409,
    },
    {
      name: 'linking an unknown table',
      method: 'POST',
      url: `/api/projects/${projectId}/tables/999999`,
      headers: as(alice),
      status: 404,
    },
    {
      name: 'linking a malformed table id',
      method: 'POST',
      url: `/api/projects/${projectId}/tables/abc`,
      headers: as(alice),
      status: 404,
    },
    {
      name: 'a layout missing',
      method: 'POST',
      url: `/api/projects/${projectId}/schema`,
      headers: as(alice),
      json: {},
      status: 400,
    },
    {
      name: 'a layout with a wrong type',
      method: 'POST',
      url: `/api/projects/${projectId}/schema`,
      headers: as(alice),
      json: { layout: { elements: [{ ...tableElement('x'), fields: [{ name: 'a', type: 5 }] }] } },
      status: 400,
      expected: { message: expect.stringMatching(/^layout\.elements\.0\.fields\.0\.type: /) },
    },
    {
      name: 'a layout with duplicate element ids',
      method: 'POST',
      url: `/api/projects/${projectId}/schema`,
      headers: as(alice),
      json: { layout: { elements: [tableElement('d'), tableElement('d')] } },
      status: 400,
      expected: { message: 'layout.elements.1.id: Element ids must be unique' },
    },
    {
      name: 'a layout with a NUL',
      method: 'POST',
      url: `/api/projects/${projectId}/schema`,
      headers: as(alice),
      json: { layout: { elements: [tableElement('a\u0000')] } },
      status: 400,
    },
    {
      name: 'an oversized layout',
      method: 'POST',
      url: `/api/projects/${projectId}/schema`,
      headers: as(alice),
      json: () => ({
        layout: {
          elements: Array.from({ length: 400 }, (_, i) => ({
            ...tableElement(`big${i}`),
            fields: Array.from({ length: 40 }, (_, f) => ({ id: `f${f}`, name: `field_${f}`, type: 'string' })),
          })),
        },
      }),
      status: 413,
      expected: { code: 'layout_too_large' },
    },
  ];
}
