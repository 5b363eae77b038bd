import type { TableResponse } from '@basalt/shared';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';
import { openapiFixture, recordApiDocument } from './openapi.fixtures';

// The Table API, Record API and OpenAPI reference pages routed as in the app, against a fake server.

// Pages load lazily; on a busy machine the first render can take longer than Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const column = (type: TableResponse['schema'][string]['type'], required = false, unique = false) => ({
  type,
  required,
  unique,
});
const orders: TableResponse = {
  id: 2,
  name: 'orders',
  description: 'Customer orders',
  schema: {
    id: column('number', true, true),
    title: column('text', true),
    qty: column('number'),
    paid: column('boolean'),
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const notes: TableResponse = {
  ...orders,
  id: 3,
  name: 'notes',
  description: null,
  schema: { id: column('number', true, true), body: column('text') },
};

const origin = () => window.location.origin;

describe('/table-api', () => {
  it('shows a loading state, then each table with its field count and endpoints', async () => {
    let answer: (response: Response) => void = () => {};
    serveFake({
      'GET /api/tables': () => new Promise((resolve) => (answer = resolve)),
      'GET /api/openapi.json': () => json(200, recordApiDocument(['orders', 'notes'])),
    });
    renderApp('/table-api');
    expect(await screen.findByRole('heading', { level: 1, name: 'Table API' })).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Loading tables' })).toBeInTheDocument();
    answer(json(200, [orders, notes]));

    const card = (await screen.findByRole('link', { name: 'orders' })).closest('[aria-labelledby]') as HTMLElement;
    expect(within(card).getByText('4 fields')).toBeInTheDocument();
    expect(within(card).getByText('Customer orders')).toBeInTheDocument();
    const endpoints = await within(card).findByRole('list', { name: 'Endpoints of orders' });
    expect(within(endpoints).getAllByRole('listitem')).toHaveLength(6);
    expect(within(card).getByRole('link', { name: 'Record API docs for orders' })).toHaveAttribute(
      'href',
      '/record-api?table=orders',
    );
    expect(screen.getByText('2 fields')).toBeInTheDocument();
  });

  it('copies an endpoint as a full URL', async () => {
    serveFake({
      'GET /api/tables': () => json(200, [orders]),
      'GET /api/openapi.json': () => json(200, recordApiDocument(['orders'])),
    });
    const user = userEvent.setup();
    renderApp('/table-api');
    await user.click(await screen.findByRole('button', { name: 'Copy DELETE /api/table/orders/{id}' }));
    expect(await navigator.clipboard.readText()).toBe(`${origin()}/api/table/orders/{id}`);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy base URL' }));
    expect(await navigator.clipboard.readText()).toBe(`${origin()}/api/table`);
  });

  it('leads to /tables/new when there are no tables', async () => {
    serveFake({ 'GET /api/tables': () => json(200, []) });
    renderApp('/table-api');
    expect(await screen.findByText('No tables yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first table' })).toHaveAttribute('href', '/tables/new');
  });

  it('shows a load failure with Retry, which loads again', async () => {
    let calls = 0;
    serveFake({
      'GET /api/tables': () => (++calls === 1 ? json(400, { message: 'Something broke' }) : json(200, [orders])),
    });
    const user = userEvent.setup();
    renderApp('/table-api');
    expect(await screen.findByText('Failed to load tables')).toBeInTheDocument();
    expect(screen.getByText('Something broke')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'orders' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('explains bearer API keys on the Authentication tab', async () => {
    serveFake({ 'GET /api/tables': () => json(200, [orders]) });
    const user = userEvent.setup();
    renderApp('/table-api');
    await user.click(await screen.findByRole('tab', { name: 'Authentication' }));
    expect(await screen.findByText('Bearer API keys')).toBeInTheDocument();
    expect(screen.getByText('Authorization: Bearer YOUR_API_KEY')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage API keys' })).toHaveAttribute('href', '/api');
    expect(screen.getByText(/\/api\/table\/orders\?limit=10/)).toBeInTheDocument();
  });

  it('shows query examples for the chosen table on the Examples tab', async () => {
    serveFake({ 'GET /api/tables': () => json(200, [orders, notes]) });
    const user = userEvent.setup();
    const { router } = renderApp('/table-api?tab=examples');
    expect(await screen.findByText('Page through records')).toBeInTheDocument();
    expect(screen.getByText(/orders\?title=eq\.Hello%20from%20the%20API/)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Table'), 'notes');
    expect(await screen.findByText(/notes\?body=eq\.Written%20with%20the%20record%20API/)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=examples&table=notes');
  });
});

describe('/record-api', () => {
  it('shows the chosen table endpoints in an accordion', async () => {
    serveFake({ 'GET /api/tables': () => json(200, [orders, notes]) });
    const user = userEvent.setup();
    renderApp('/record-api');
    expect(await screen.findByRole('heading', { level: 1, name: 'Record API' })).toBeInTheDocument();
    const list = await screen.findByRole('button', { name: /^GET\s*List records/ });
    expect(list).toHaveAttribute('aria-expanded', 'true');
    const triggers = screen.getAllByRole('button', { expanded: false }).map((b) => b.textContent);
    expect(triggers).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Get a record'),
        expect.stringContaining('Create a record'),
        expect.stringContaining('Replace a record'),
        expect.stringContaining('Update a record'),
        expect.stringContaining('Delete a record'),
      ]),
    );
    expect(
      screen.getByText(`${origin()}/api/table/orders?limit=10&offset=0&orderBy=id&order=asc`, { exact: false }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^POST\s*Create a record/ }));
    const body = await screen.findByRole('list', { name: 'Body of Create a record' });
    expect(within(body).getByText('title')).toBeInTheDocument();
    expect(within(body).getByText('required')).toBeInTheDocument();
    expect(screen.getByText(/-d '\{"title":"Hello from the API","qty":3,"paid":true\}'/)).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Table'), 'notes');
    expect(await screen.findByText(/\/api\/table\/notes\?limit=10/)).toBeInTheDocument();
  });

  it('shows runnable JavaScript, Python and cURL examples with the real columns and origin', async () => {
    serveFake({ 'GET /api/tables': () => json(200, [orders]) });
    const user = userEvent.setup();
    renderApp('/record-api?tab=examples');
    const js = await screen.findByTitle('JavaScript example');
    expect(js.textContent).toContain(`const BASE_URL = '${origin()}/api/table/orders';`);
    expect(js.textContent).toContain("title: 'Hello from the API'");
    await user.click(screen.getByRole('button', { name: 'Copy JavaScript example' }));
    expect(await navigator.clipboard.readText()).toBe(js.textContent);

    await user.click(screen.getByRole('tab', { name: 'Python' }));
    const python = await screen.findByTitle('Python example');
    expect(python.textContent).toContain('import requests');
    expect(python.textContent).toContain('"paid": True');

    await user.click(screen.getByRole('tab', { name: 'cURL' }));
    const curl = await screen.findByTitle('cURL example');
    expect(curl.textContent).toContain(`BASE_URL='${origin()}/api/table/orders'`);
  });

  it('lists the status codes and the error body on the Responses tab', async () => {
    serveFake({ 'GET /api/tables': () => json(200, []) });
    const user = userEvent.setup();
    renderApp('/record-api?tab=responses');
    const codes = await screen.findByLabelText('Status codes');
    for (const status of ['200', '201', '400', '401', '403', '404', '409', '429', '500']) {
      expect(within(codes).getByText(status)).toBeInTheDocument();
    }
    await user.click(within(codes).getByRole('button', { name: /Unauthorized/ }));
    expect(await screen.findByText(/"code": "INVALID_API_KEY"/)).toBeInTheDocument();
  });

  it('leads to /tables/new when there are no tables', async () => {
    serveFake({ 'GET /api/tables': () => json(200, []) });
    renderApp('/record-api?tab=examples');
    expect(await screen.findByText('No tables yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first table' })).toHaveAttribute('href', '/tables/new');
  });

  it('shows a load failure with Retry, which loads again', async () => {
    let calls = 0;
    serveFake({
      'GET /api/tables': () => (++calls === 1 ? json(401, { message: 'Authentication required' }) : json(200, [notes])),
    });
    const user = userEvent.setup();
    renderApp('/record-api');
    expect(await screen.findByText('Failed to load tables')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/\/api\/table\/notes\?limit=10/)).toBeInTheDocument();
  });

  it('links to the OpenAPI reference', async () => {
    serveFake({ 'GET /api/tables': () => json(200, [orders]) });
    renderApp('/record-api');
    expect(await screen.findByRole('link', { name: 'OpenAPI reference' })).toHaveAttribute(
      'href',
      '/record-api/reference',
    );
  });
});

describe('/record-api/reference', () => {
  it('renders the OpenAPI document: operations by tag, their details, schemas, and a download', async () => {
    serveFake({ 'GET /api/openapi.json': () => json(200, openapiFixture) });
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:openapi');
    const revokeObjectURL = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp('/record-api/reference');
    expect(await screen.findByText('Basalt record API')).toBeInTheDocument();
    expect(screen.getByText('apiKey: Authorization: Bearer <API key>')).toBeInTheDocument();
    // Backtick spans of a description read as code; nothing else in it is markup.
    expect(screen.getByText('Authorization: Bearer <key>').tagName).toBe('CODE');
    const operations = screen.getByLabelText('Operations of orders');
    await user.click(within(operations).getByRole('button', { name: /List records of orders/ }));
    const parameters = await screen.findByRole('list', { name: 'Parameters of List records of orders' });
    expect(within(parameters).getByText('limit')).toBeInTheDocument();
    expect(within(parameters).getByText('integer')).toBeInTheDocument();
    const responses = screen.getByRole('list', { name: 'Responses of List records of orders' });
    expect(within(responses).getByText('orders[]')).toBeInTheDocument();
    expect(within(responses).getByText('X-Total-Count')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /orders\.input/ }));
    expect(await screen.findByRole('list', { name: 'Fields of orders.input' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download openapi.json' }));
    expect(createObjectURL).toHaveBeenCalledOnce();
    const blob = createObjectURL.mock.calls[0]?.[0];
    expect(blob instanceof Blob ? JSON.parse(await blob.text()) : null).toEqual(openapiFixture);
    createObjectURL.mockRestore();
    revokeObjectURL.mockRestore();
  });

  it('downloads the generated supabase-js types', async () => {
    const types = 'export type Database = { public: {} }\n';
    serveFake({
      'GET /api/openapi.json': () => json(200, openapiFixture),
      'GET /api/types.ts': () => new Response(types, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
    });
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:types');
    const revokeObjectURL = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp('/record-api/reference');
    await user.click(await screen.findByRole('button', { name: 'Download database.types.ts' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledOnce());
    const blob = createObjectURL.mock.calls[0]?.[0];
    expect(blob instanceof Blob ? await blob.text() : null).toBe(types);
    createObjectURL.mockRestore();
    revokeObjectURL.mockRestore();
  });

  it('shows a load failure with Retry', async () => {
    let calls = 0;
    serveFake({
      'GET /api/openapi.json': () =>
        ++calls === 1 ? json(404, { message: 'No route for GET /api/openapi.json' }) : json(200, openapiFixture),
    });
    const user = userEvent.setup();
    renderApp('/record-api/reference');
    expect(await screen.findByText('Failed to load the OpenAPI document')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Basalt record API')).toBeInTheDocument();
  });

  it('says when there are no endpoints yet', async () => {
    serveFake({ 'GET /api/openapi.json': () => json(200, { ...openapiFixture, tags: [], paths: {} }) });
    renderApp('/record-api/reference');
    expect(await screen.findByText('No endpoints yet')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Create your first table' })).toHaveAttribute('href', '/tables/new'),
    );
  });
});
