import type { Project, SharedTable } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';

// The Schema Editor's project states, New Project and the shared tables list, against a fake server. The canvas and its socket are covered by the e2e suite.

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const project: Project = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Apollo',
  description: null,
  ownerId: 'u1',
  icon: null,
  color: null,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  role: 'OWNER',
};

// A socket that never connects: the room's connection is the e2e suite's business.
class QuietSocket {
  static OPEN = 1;
  readyState = 0;
  onopen = null;
  onclose = null;
  onerror = null;
  onmessage = null;
  send() {}
  close() {}
}

// A socket that opens at once and then hears nothing.
class OpeningSocket extends QuietSocket {
  constructor() {
    super();
    setTimeout(() => {
      this.readyState = 1;
      (this.onopen as (() => void) | null)?.();
    }, 0);
  }
}

beforeEach(() => vi.stubGlobal('WebSocket', QuietSocket));

describe('the Schema Editor’s projects', () => {
  it('says when the projects failed to load and retries', async () => {
    let calls = 0;
    serveFake({
      'GET /api/projects': () => (++calls === 1 ? json(400, { message: 'down' }) : json(200, [])),
    });
    const user = userEvent.setup();
    renderApp('/schema-editor');
    expect(
      await screen.findByText('Failed to load projects. Please try again.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Create Your First Project' })).toHaveAttribute(
      'href',
      '/projects/new',
    );
  });

  it('offers New Project and the project selector when there are projects', async () => {
    serveFake({ 'GET /api/projects': () => json(200, [project, { ...project, id: '2', name: 'Gemini' }]) });
    renderApp('/schema-editor');
    const selector = await screen.findByRole('combobox', { name: 'Project' });
    expect(
      within(selector)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Apollo', 'Gemini']);
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'New Project' })).toHaveAttribute(
      'href',
      '/projects/new',
    );
  });
});

describe('New Project', () => {
  it('checks the name, creates the project and returns to the Schema Editor', async () => {
    const backend = serveFake({
      'POST /api/projects': (request) => json(201, { ...project, ...Object(request.body), description: null }),
      'GET /api/projects': () => json(200, [project]),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/projects/new');
    await user.type(await screen.findByLabelText('Name'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Create Project' }));
    expect(await screen.findByText('Project name must be at least 3 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'c');
    await user.click(screen.getByRole('button', { name: 'Create Project' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schema-editor'));
    expect(backend.find('POST', '/api/projects')[0]?.body).toEqual({ name: 'abc', description: '' });
  });

  it('keeps "Project created" in view: a new project’s missing layout (404) is a blank canvas, not a warning', async () => {
    const layoutPath = `/api/projects/${project.id}/schema`;
    const backend = serveFake({
      'POST /api/projects': () => json(201, project),
      'GET /api/projects': () => json(200, [project]),
      [`GET ${layoutPath}`]: () => json(404, { message: 'No schema layout has been saved for this project yet' }),
    });
    vi.stubGlobal('WebSocket', OpeningSocket);
    const user = userEvent.setup();
    renderApp('/projects/new');
    await user.type(await screen.findByLabelText('Name'), 'Apollo');
    await user.click(screen.getByRole('button', { name: 'Create Project' }));
    await waitFor(() => expect(backend.find('GET', layoutPath)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading the layout' })).not.toBeInTheDocument());
    // The room connects, the indicator says so, and "Project created" stays in view.
    expect(await screen.findByText('Connected', { selector: '[role="status"]' })).toBeInTheDocument();
    expect(screen.getByText('Project created')).toBeInTheDocument();
    expect(screen.queryByText(/Could not load the schema layout/)).not.toBeInTheDocument();
    expect(screen.queryByText('Connected to collaboration server')).not.toBeInTheDocument();
  });

  it('warns when the layout could not be loaded, and starts blank', async () => {
    serveFake({
      'GET /api/projects': () => json(200, [project]),
      [`GET /api/projects/${project.id}/schema`]: () => json(500, { message: 'down' }),
    });
    renderApp('/schema-editor');
    expect(
      await screen.findByText('Warning: Could not load the schema layout. Starting with a blank canvas.'),
    ).toBeInTheDocument();
  });

  it('goes back to the Schema Editor on Cancel', async () => {
    serveFake({ 'GET /api/projects': () => json(200, []) });
    const user = userEvent.setup();
    const { router } = renderApp('/projects/new');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schema-editor'));
  });
});

const shared: SharedTable = {
  id: 42,
  name: 'launches',
  description: null,
  ownerId: 'u2',
  ownerName: 'katherine',
  schema: { id: { type: 'number', required: true, unique: true } },
  createdAt: '2026-01-01T00:00:00.000Z',
  linkedAt: '2026-01-01T00:00:00.000Z',
  projectId: project.id,
  projectName: 'Apollo',
  role: 'EDITOR',
};

describe('tables shared with you', () => {
  it('lists them with their project’s name on /tables', async () => {
    serveFake({
      'GET /api/shared-tables': () => json(200, [shared]),
      'GET /rest/v1/tables': () => json(200, []),
    });
    renderApp('/tables');
    expect(await screen.findByRole('link', { name: 'launches' })).toHaveAttribute('href', '/tables/42');
    expect(screen.getByText('Apollo · by katherine')).toBeInTheDocument();
    expect(screen.getByText('EDITOR')).toBeInTheDocument();
  });
});

describe('a shared table’s page', () => {
  it('shows the project and role, and offers no record changes to a VIEWER', async () => {
    const { ownerId: _o, ownerName: _n, linkedAt: _l, projectId: _p, projectName: _pn, role: _r, ...table } = shared;
    serveFake({
      'GET /api/shared-tables': () => json(200, [{ ...shared, role: 'VIEWER' }]),
      'GET /api/tables/42': () => json(200, { ...table, updatedAt: table.createdAt }),
      'GET /api/tables/42/records': () =>
        json(200, {
          data: [{ id: 1, created_at: table.createdAt, updated_at: table.createdAt }],
          total: 1,
          limit: 25,
          offset: 0,
        }),
    });
    renderApp('/tables/42');
    expect(await screen.findByText('Shared in Apollo · VIEWER')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Records' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Record' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit record 1' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete record 1' })).not.toBeInTheDocument();
  });
});

describe('Project settings and the docs pages', () => {
  // Both read GET /api/tables under one key: Project settings used to cache it as {id, name} only, and the Table
  // API page then met tables without a schema and threw.
  it('leave the account’s table list whole for the docs pages', async () => {
    const orders = {
      id: 7,
      name: 'orders',
      description: null,
      schema: {
        id: { type: 'number', required: true, unique: true },
        title: { type: 'text', required: false, unique: false },
      },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    serveFake({
      'GET /api/projects': () => json(200, [project]),
      [`GET /api/projects/${project.id}/members`]: () => json(200, []),
      [`GET /api/projects/${project.id}/tables`]: () => json(200, []),
      'GET /api/tables': () => json(200, [orders]),
    });
    const { router } = renderApp(`/projects/${project.id}/settings`);
    expect(await screen.findByRole('option', { name: 'orders' }, { timeout: 10_000 })).toBeInTheDocument();
    await router.navigate('/table-api');
    const card = (await screen.findByRole('link', { name: 'orders' }, { timeout: 10_000 })).closest(
      '[aria-labelledby]',
    ) as HTMLElement;
    expect(within(card).getByText('2 fields')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });
});
