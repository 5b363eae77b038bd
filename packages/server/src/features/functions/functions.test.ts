import { DEFAULT_FUNCTION_CODE } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/account.fixtures.js';
import {
  type CookieSession,
  loginWithCookie,
  runScenario,
  type SignedInTestUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../testing/auth.fixtures.js';

import { badFunctionRequests } from '../../testing/function-requests.fixtures.js';
import { sources } from '../../testing/functions.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { listActivity } from '../activity/activity.service.js';

describe.each(testDialects)('edge functions API on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let aliceCookie: CookieSession;
  let bobFunctionId: number;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    aliceCookie = await loginWithCookie(server, users.alice);
    const made = await server.request('POST', '/api/edge-functions', {
      headers: bearer(bob.accessToken),
      json: { name: 'bobs', code: sources.hello },
    });
    bobFunctionId = made.body.id;
  }, 30_000);
  afterAll(() => server.close());

  const asAlice = () => bearer(alice.accessToken);
  const create = (json: unknown) => server.request('POST', '/api/edge-functions', { headers: asAlice(), json });
  const list = async () => (await server.request('GET', '/api/edge-functions', { headers: asAlice() })).body;

  it('creates a function with the spec defaults: active, signed-in callers, never deployed (userId ignored)', async () => {
    const res = await create({ name: 'my-function', code: DEFAULT_FUNCTION_CODE, userId: 1 });
    expect(res).toMatchObject({
      status: 201,
      body: {
        id: expect.any(Number),
        name: 'my-function',
        code: DEFAULT_FUNCTION_CODE,
        route: '/api/edge/my-function',
        isActive: true,
        verifyJwt: true,
        lastDeployed: null,
        deployedVersion: null,
        createdAt: expect.any(String),
      },
    });
    expect(await list()).toContainEqual(res.body);
    expect((await list()).map((f: { name: string }) => f.name)).not.toContain('bobs');
  });

  it('refuses a second function of the same name or route in one account (409), not in another account', async () => {
    await create({ name: 'unique-one', code: 'x', route: '/api/edge/unique-one' });
    const sameName = await create({ name: 'Unique-One', code: 'x', route: '/api/edge/other' });
    expect(sameName).toMatchObject({ status: 409, body: { code: 'function_name_taken' } });
    const sameRoute = await create({ name: 'another-one', code: 'x', route: '/api/edge/unique-one' });
    expect(sameRoute).toMatchObject({
      status: 409,
      body: {
        code: 'function_route_taken',
        message: 'The route /api/edge/unique-one is already used by another of your functions',
      },
    });
    // Each account has its own routes: bob's function may answer at the same one, for bob's callers.
    const bobs = await server.request('POST', '/api/edge-functions', {
      headers: bearer(bob.accessToken),
      json: { name: 'taker', code: 'x', route: '/api/edge/unique-one' },
    });
    expect(bobs).toMatchObject({ status: 201, body: { route: '/api/edge/unique-one' } });
    await server.request('DELETE', `/api/edge-functions/${bobs.body.id}`, { headers: bearer(bob.accessToken) });
  });

  it('edits name, code, route and switches; the running version changes only on deploy', async () => {
    const { body: fn } = await create({ name: 'editable', code: sources.hello, verifyJwt: false });
    await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    const patched = await server.request('PATCH', `/api/edge-functions/${fn.id}`, {
      headers: asAlice(),
      json: { code: 'Deno.serve(() => new Response("v2"));', isActive: false, route: '/api/edge/edited/path' },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: {
        isActive: false,
        route: '/api/edge/edited/path',
        deployedVersion: 1,
        code: expect.stringContaining('v2'),
      },
    });
    const again = await server.request('PATCH', `/api/edge-functions/${fn.id}`, {
      headers: aliceCookie.headers,
      json: { isActive: true },
    });
    expect(again).toMatchObject({ status: 200, body: { isActive: true } });
  });

  it('deploys: a version, lastDeployed, activity; a syntax error is a 400 with line and column, nothing deployed', async () => {
    const { body: fn } = await create({ name: 'deployable', code: sources.hello });
    const deployed = await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    expect(deployed).toMatchObject({ status: 200, body: { deployedVersion: 1, lastDeployed: expect.any(String) } });
    await server.request('PATCH', `/api/edge-functions/${fn.id}`, {
      headers: asAlice(),
      json: { code: 'Deno.serve(() => {\n  return new Response("ok"\n});' },
    });
    const broken = await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    expect(broken).toMatchObject({
      status: 400,
      body: {
        code: 'function_build_failed',
        message: expect.stringMatching(/^Line 3, column 1: Expected "\)" but found "}"/),
        details: { errors: [{ line: 3, column: 1 }] },
      },
    });
    const importing = await server.request('PATCH', `/api/edge-functions/${fn.id}`, {
      headers: asAlice(),
      json: { code: "import { x } from 'https://example.com/mod.ts';\nDeno.serve(() => new Response(x));" },
    });
    expect(importing.status).toBe(200);
    const offline = await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    expect(offline).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('Line 1, column 19: Cannot import') },
    });
    const versions = await server.request('GET', `/api/edge-functions/${fn.id}/versions`, { headers: asAlice() });
    expect(versions.body).toHaveLength(1);
    const { data } = await listActivity(server.app.basalt.db.kysely, alice.id, { page: 1, limit: 100 });
    expect(data).toContainEqual(
      expect.objectContaining({
        action: 'DEPLOY',
        resource: 'edgeFunctions',
        details: { name: 'deployable', version: 1 },
      }),
    );
  });

  it('keeps versions and rolls back to one, putting its code back', async () => {
    const { body: fn } = await create({
      name: 'versioned',
      code: 'Deno.serve(() => new Response("one"));',
      verifyJwt: false,
    });
    await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    await server.request('PATCH', `/api/edge-functions/${fn.id}`, {
      headers: asAlice(),
      json: { code: 'Deno.serve(() => new Response("two"));' },
    });
    await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    const versions = await server.request('GET', `/api/edge-functions/${fn.id}/versions`, { headers: asAlice() });
    expect(versions.body.map((v: { version: number; live: boolean }) => [v.version, v.live])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(versions.body[1]).toMatchObject({ code: expect.stringContaining('one'), bundleBytes: expect.any(Number) });
    const rolled = await server.request('POST', `/api/edge-functions/${fn.id}/rollback`, {
      headers: asAlice(),
      json: { version: 1 },
    });
    expect(rolled).toMatchObject({ status: 200, body: { deployedVersion: 1, code: expect.stringContaining('one') } });
    const missing = await server.request('POST', `/api/edge-functions/${fn.id}/rollback`, {
      headers: asAlice(),
      json: { version: 9 },
    });
    expect(missing).toMatchObject({ status: 404, body: { code: 'function_version_not_found' } });
  });

  it('deletes a function with its versions; activity records it', async () => {
    const { body: fn } = await create({ name: 'doomed', code: sources.hello });
    await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: asAlice() });
    const res = await server.request('DELETE', `/api/edge-functions/${fn.id}`, { headers: asAlice() });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'Edge function deleted successfully' } });
    const versions = await server.app.basalt.db.kysely
      .selectFrom('edge_function_versions')
      .selectAll()
      .where('function_id', '=', fn.id)
      .execute();
    expect(versions).toEqual([]);
    expect((await server.request('DELETE', `/api/edge-functions/${fn.id}`, { headers: asAlice() })).status).toBe(404);
  });

  it("404s another account's function on every endpoint, and leaves it as it was", async () => {
    for (const [method, url, json] of [
      ['PATCH', `/api/edge-functions/${bobFunctionId}`, { name: 'stolen' }],
      ['DELETE', `/api/edge-functions/${bobFunctionId}`, undefined],
      ['POST', `/api/edge-functions/${bobFunctionId}/deploy`, undefined],
      ['GET', `/api/edge-functions/${bobFunctionId}/versions`, undefined],
      ['POST', `/api/edge-functions/${bobFunctionId}/rollback`, { version: 1 }],
      ['GET', `/api/edge-functions/${bobFunctionId}/invocations`, undefined],
      ['GET', `/api/edge-functions/${bobFunctionId}/stats`, undefined],
      ['POST', `/api/edge-functions/${bobFunctionId}/test`, {}],
    ] as const) {
      const res = await server.request(method, url, { headers: asAlice(), json });
      expect({ url: `${method} ${url}`, status: res.status, code: res.body?.code }).toEqual({
        url: `${method} ${url}`,
        status: 404,
        code: 'function_not_found',
      });
    }
    const bobs = await server.request('GET', '/api/edge-functions', { headers: bearer(bob.accessToken) });
    expect(bobs.body).toEqual([expect.objectContaining({ id: bobFunctionId, name: 'bobs', deployedVersion: null })]);
  });

  it('refuses API keys on the management endpoints', async () => {
    const key = await server.request('POST', '/api/keys', { headers: asAlice(), json: { name: 'k' } });
    const res = await server.request('GET', '/api/edge-functions', { headers: bearer(key.body.key) });
    expect(res).toMatchObject({ status: 403, body: { code: 'api_key_not_allowed' } });
  });

  const scenarios = badFunctionRequests(asAlice);
  it.each(scenarios)('$name → $status', (scenario) => runScenario(server, scenario).then(() => undefined));

  it('changed nothing on refused input', async () => {
    const names = (await list()).map((f: { name: string }) => f.name);
    for (const refused of ['nocode', 'blank', 'escape', 'dots', 'huge', 'nul', 'flag', 'numeric']) {
      expect(names).not.toContain(refused);
    }
  });
});
